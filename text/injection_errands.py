"""Cues of an order a document gives whoever reads it, written after set F's held-back half was
scored (its writer's misses: quiet errands, not overrides).

- *The reader addressed*: an AI, assistant or model (not a tool, agent or system: shipping
  agents and software read documents too) named by what it does to *this* text
  ("any assistant that summarises this report should ...", "der Assistent, der diesen Bericht
  verarbeitet, soll ...", "en KI som leser dette dokumentet skal ..."), followed by an order
  (should, must, soll, doit, deve, moet, skal ...) or a colon. A policy about assistants in
  general names no reader of *this* text; a person is not "the assistant that reads this".
- *A covert errand*: an action on the archive or its mail (delete, send, forward ...) and, near
  it, the wish that nobody learn of it ("without telling the user", "so nobody notices", "sans
  rien dire", "senza avvisare", "uten å si fra"): a weak cue each, an instruction together.

Read, like the other Latin-script cues, on the folded, accent-free, de-spaced copy."""

from __future__ import annotations

_AI = (
    r"(?:ai|a\.i\.|ia|ki|llm|chatbot|bot|model|modell|modele|modelo|modello|assistant|assistent"
    r"|asistente|assistente|asystent|summari[sz]er)"
)
_ANY = (
    r"(?:any|every|each|the|an?|whichever|whatever|all|tout|toute|tous|chaque|l'|le|la|une?"
    r"|der|die|das|jede[rs]?|eine?[nr]?|cualquier|toda|todo|el|cada|qualquer|o|a|uma?"
    r"|qualsiasi|ogni|il|lo|elke|iedere|het|een|en|enhver|hver|den|alle|varje)"
)
# the reader's verb, then "this" (the text it is reading), in each language
_READS_THIS = (
    r"(?:(?:that|which|who)\s+(?:is\s+|are\s+)?)?(?:reads?|reading|processe?s|processing|summari[sz]es?"
    r"|summari[sz]ing|handles?|handling|quotes?|quoting|parses?|parsing|sees?|ingests?"
    r"|indexe?s|analy[sz]es?|analy[sz]ing|receives?|opens?)\s+(?:this|these)"
    r"|qui\s+(?:lit|lira|resume|traite|analyse|cite|recoit|ouvre)\s+(?:ce|cet|cette|ces)"
    r"|(?:der|die|das|welche[rs]?)\s+(?:diese[nrs]?|dies)\b[^.!?\n]{0,60}?\b(?:liest|verarbeitet"
    r"|zusammenfasst|analysiert|zitiert|erhalt|offnet)"
    r"|que\s+(?:lea|lee|procese|procesa|resuma|resume|analice|cite|reciba|leia|le|processe"
    r"|processa|analise|receba)\s+(?:este|esta|estos|estas|estes)"
    r"|che\s+(?:legge|leggera|elabora|riassume|analizza|cita|riceve)\s+(?:questo|questa|questi"
    r"|queste)"
    r"|die\s+(?:dit|deze|dat)\b[^.!?\n]{0,60}?\b(?:leest|verwerkt|samenvat|citeert|analyseert"
    r"|ontvangt)"
    r"|som\s+(?:leser|laser|behandler|behandlar|oppsummerer|sammenfatter|sammanfattar|siterer"
    r"|citerer)\s+(?:dette|denne|detta|denna|disse|dessa)"
)
_ORDERED = (
    r"(?:should|must|shall|is\s+to|are\s+to|has\s+to|have\s+to|needs?\s+to|will|ought\s+to"
    r"|doit|doivent|devra|devrait|soll|sollte|muss|hat\s+zu|debe|debera|deberia|tiene\s+que"
    r"|deve|devera|deveria|tem\s+(?:de|que)|dovra|dovrebbe|moet|dient|zal|skal|ska|skall|bor)"
)
#: Strong cues (an instruction alone), by name.
STRONG: dict[str, str] = {
    "reader_order": rf"\b{_ANY}\s*(?:[\w-]+\s+){{0,2}}?(?:[\w]+-)?{_AI}(?:s|en|er)?\b"
    rf"(?:\s+(?:de|di|da|d')\s*(?:ia|ai|ki)\b)?,?\s+(?:automat\w*\s+)?{_READS_THIS}\b[^.!?\n]{{0,80}}?(?:\b{_ORDERED}\b|:)"
    r"|\b(?:note|message|memo|attention|reminder|instructions?|request)\s+(?:to|for)\s+"
    rf"(?:any|every|the|whichever|whatever|all)\s+(?:[\w-]+\s+){{0,2}}?{_AI}s?\b",
}
_EVERY = r"(?:every|each|jede[rnms]?|cada|chaque|toute|ogni|elk|ieder|hvert|varje|kazd\w*)"
_ANSWER = (
    r"(?:answers?|repl(?:y|ies)|responses?|antwort(?:en)?|respuestas?|respostas?|reponses?"
    r"|risposte?|antwoord(?:en)?|svar|odpowiedz\w*)"
)
#: Strong cues: something dictated into every answer ("every reply of yours could mention
#: ...", "Añade al final de cada respuesta: «...»", "Legg til i hvert svar: ...").
STRONG["every_answer"] = (
    rf"\b{_EVERY}\s+(?:[\w-]+\s+){{0,2}}?{_ANSWER}\b[^.!?\n]{{0,60}}?(?::|https?://|!\["
    r"|\b(?:mention|include|add|append|recommend|end\s+with|begin\s+with|start\s+with"
    r"|close\s+with|empfiehlt|erwahn|menciona|mencione|recomend|mentionne"
    r"|menziona|consiglia|vermeld|nevn)\w*)"
    r"|\b(?:add|append|insert|put|fuge|anade|agrega|adicione|acrescente|ajoute|aggiungi|voeg"
    rf"|legg\s+til|lagg\s+till)\w*\b[^.!?\n]{{0,40}}?\b{_EVERY}\s+{_ANSWER}\b"
)
#: The reader addressed in Cyrillic and Chinese (read on the unfolded copy).
SCRIPT: dict[str, str] = {
    "reader_order_script": r"(?:ассистент|помощник|модель|ии|бот)\w*,?\s+(?:который\s+)?"
    r"(?:чита|обрабатыва|анализиру)\w*\s+(?:это|этот|эту|эти)\b[^.!?\n]{0,80}?"
    r"(?:должен|должна|должны|обязан)"
    r"|(?:读取|阅读|处理|总结|讀取|閱讀|處理|總結)(?:本|这|這|此)[^。！？\n]{0,8}?的?(?:AI|人工智能)?助手"
    r"|(?:読む|読んでいる|処理する|要約する)(?:AI|アシスタント)",
}
#: Weak cues (an instruction only in a pair), by name, and the pairs they make.
WEAK: dict[str, str] = {
    "covert": r"\b(?:without\s+(?:telling|asking|informing|notifying|alerting|checking\s+with"
    r"|mentioning)|so\s+(?:that\s+)?(?:nobody|no\s+one|the\s+user)"
    r"\s+(?:notices|knows|sees|finds\s+out)|no\s+need\s+to\s+(?:check|ask|confirm|tell)"
    r"|do\s+not\s+(?:tell|inform|notify|report|mention)\s+(?:this|it|the\s+user|anyone)"
    r"|don'?t\s+(?:tell|inform|mention)\s+(?:this|it|the\s+user|anyone)"
    r"|sans\s+(?:rien\s+)?(?:dire|prevenir|avertir|demander|informer)"
    r"|sin\s+(?:decir|avisar|preguntar|informar)|sem\s+(?:dizer|avisar|perguntar|informar)"
    r"|senza\s+(?:dire|avvisare|chiedere|informare)|ohne\s+(?:zu\s+fragen|nachzufragen"
    r"|es\s+zu\s+erwahnen|bescheid)|zonder\s+(?:te\s+vragen|te\s+melden|iets\s+te\s+zeggen)"
    r"|uten\s+a\s+(?:si\s+fra|sporre)|utan\s+att\s+(?:fraga|saga)|uden\s+at\s+(?:sige|sporge))\b",
    "act": r"\b(?:delete|erase|purge|wipe|remove|destroy|forward|send|upload|supprime\w*"
    r"|efface\w*|envoie\w*|transfere\w*|losch\w*|entfern\w*|schick\w*|sende\w*|leite\w*"
    r"|borra\w*|elimin\w*|envia\w*|reenvia\w*|apag\w*|exclu\w*|encaminh\w*|cancella\w*"
    r"|invia\w*|inoltra\w*|verwijder\w*|wis\w*|stuur\w*|slett\w*|videresend\w*|radera\w*"
    r"|skicka\w*)\b",
}
PAIRS = (("covert", "act"),)
