"""The planted-instruction detector's second reading: cues of meaning rather than fixed phrasings.

A planted instruction speaks *to the model*: it overrides the model's rules, hands it a persona,
asks for its prompt, dictates its output, or sends its data somewhere. Ordinary archive prose uses
the same words ("ignore the previous reading", "the override switch", "reply only to the office")
without that addressee. So each cue here is one such sign; a few are strong enough alone (an
imperative override of "your instructions", a request for the system prompt), the rest count only
in pairs that together name the model as the addressee (an override verb and the model's rules,
a role and a persona without rules, a URL and the conversation). Cues are read on the folded,
de-spaced copy (Latin scripts, look-alikes folded) and on the plain copy (other scripts), in
English, French, German, Spanish, Portuguese, Italian, Dutch, Polish, Swedish, Turkish, Russian,
Chinese, Japanese, Korean and Arabic.
"""

from __future__ import annotations

import re
import unicodedata

from text import injection_errands

_F = re.IGNORECASE
_WINDOW = 220  # characters within which two weak cues are read as one instruction
_CLAUSE = re.compile(r"[^.!?;\n。！？]*[.!?;。！？]?")

# ---- English and the other Latin-script languages (matched on the folded, accent-free copy) ----
_IMPERATIVE = (
    r"(?:ignore|disregard|forget|discard|neglect|skip|drop|reset|abandon|supersede|bypass"
    r"|throw\s+away|set\s+aside|put\s+aside|pay\s+no\s+attention\s+to|stop\s+(?:following|obeying)"
    r"|do\s+not\s+(?:obey|follow|listen\s+to)|don'?t\s+(?:obey|follow|listen\s+to))"
)
_FOREIGN_IMPERATIVE = (
    r"(?:ignorez|ignore(?=\s+(?:toutes|tous|les|vos|tes|todas|todos|as|os|suas|seus|all)\s)"
    r"|oublie[zr]?|ne\s+tene[zs]\s+pas\s+compte|ne\s+tiens\s+pas\s+compte|fais\s+abstraction"
    r"|ignora|olvida|olvide|no\s+hagas\s+caso|no\s+sigas|desestima|omite|ignorier(?:e|en)?"
    r"|vergiss|vergessen\s+sie|missachte|missachten\s+sie|beachte\s+nicht|esqueca|esquecam"
    r"|desconsidere|desconsidera|nao\s+siga|dimentica|non\s+tenere\s+conto|trascura|negeer"
    r"|vergeet|houd\s+geen\s+rekening|zignoruj|ignoruj|zapomnij|ignorera|glom|yok\s+say"
    r"|gormezden\s+gel|unut)"
)
_RULE_NOUN = (
    r"(?:instructions?|rules|guidelines|guidance|directives|directions|prompts?|programming"
    r"|policies|constraints|restrictions|system\s+message|consignes|regles|instrucciones|reglas"
    r"|indicaciones|normas|anweisungen|regeln|vorgaben|richtlinien|instrucoes|regras|orientacoes"
    r"|diretrizes|istruzioni|regole|indicazioni|direttive|instructies|regels|aanwijzingen"
    r"|instrukcj\w*|polecen\w*|zasad\w*|instruktioner|regler|talimat\w*|kural\w*)"
)
#: Words saying the rules are earlier ones or the reader's own, in the other Latin-script languages.
FOREIGN_EARLIER = (
    r"(?:toutes|tous|precedentes?|anterieures?|ci-dessus|vos|tes|alle[ns]?|vorherigen|bisherigen"
    r"|obigen|deine[n]?|ihre[n]?|todas|todos|anteriores|previas|tus|sus|suas|seus|acima|tutte"
    r"|precedenti|tue|sopra|vorige|eerdere|bovenstaande|je|jouw|wszystkie|poprzednie|swoje"
    r"|wczesniejsz\w*|tidigare|alla|dina|onceki|tum)"
)
_QUALIFIER = (
    r"(?:your|you\s+were\s+given|previous|prior|earlier|above|initial|original|usual|system"
    r"|all|any|every|these|those|my|developer'?s?|the\s+user'?s)"
)
_LATIN: dict[str, str] = {
    # an imperative override of the model's rules, in any of the languages, mixed ones too
    "override": rf"(?:\b{_IMPERATIVE}\b(?:\s+[\w'-]+){{0,4}}?\s+{_QUALIFIER}\b"
    rf"(?:\s+[\w'-]+){{0,3}}?\s+{_RULE_NOUN}\b"
    rf"|\b{_FOREIGN_IMPERATIVE}\b(?:\s*[\w',-]+){{0,3}}?\s+{FOREIGN_EARLIER}"
    rf"(?:\s+[\w',-]+){{0,2}}?\s+{_RULE_NOUN}\b|\b{_FOREIGN_IMPERATIVE}\b(?:\s*[\w',-]+){{0,5}}?\s+"
    rf"{_RULE_NOUN}(?:\s+[\w',-]+){{0,2}}?\s+{FOREIGN_EARLIER}\b"
    rf"|\b{_IMPERATIVE}\s+(?:the\s+)?(?:user'?s\s+question|question\s+you\s+were\s+asked"
    r"|(?:all|everything|what(?:ever)?)\s+(?:that\s+)?you\s+(?:were|have\s+been|got)\b)"
    # Turkish puts the verb last
    rf"|\b{_RULE_NOUN}(?:\s+[\w',-]+){{0,3}}?\s+(?:yok\s+say|unut|gormezden\s+gel)\b)",
    "reveal": r"\b(?:print|reveal|show|output|repeat|disclose|leak|dump|echo|quote|write\s+out"
    r"|summari[sz]e|tell\s+me|display|list)\b[^.!?\n]{0,60}?(?:system\s+prompt|initial\s+prompt"
    r"|pre-?\s?prompt|hidden\s+(?:instructions|rules)|secret\s+rules|confidential\s+guidelines"
    r"|developer\s+message|system\s+message|context\s+window|(?:instructions|prompt|rules)\s+you"
    r"\s+(?:were|have\s+been)\s+\w+|api[\s_-]?keys?|environment\s+variable|stored\s+passwords?)",
    "prompt_foreign": r"\b(?:prompt\s+(?:systeme|du\s+systeme|del\s+sistema|de\s+sistema"
    r"|do\s+sistema|di\s+sistema|systemowy)|system-?prompt|systeemprompt|sistem\s+komut\w*)",
    "persona_foreign": r"\b(?:assistant|assistent|asistente|assistente|ia|ki|ai|modelo|modell)\b"
    r"[^.!?\n]{0,20}?\b(?:sans\s+(?:regles|restrictions|limites)|ohne\s+(?:regeln|grenzen"
    r"|einschrankungen)|sin\s+(?:reglas|restricciones|limites)|sem\s+(?:regras|restricoes)"
    r"|senza\s+(?:regole|restrizioni)|zonder\s+(?:regels|beperkingen))"
    r"|\b(?:tu\s+n'as|vous\s+n'avez|du\s+hast|no\s+tienes|voce\s+nao\s+tem|non\s+hai|je\s+hebt)"
    r"\s+(?:plus\s+de|keine|ya|mais|piu|geen)\s+(?:\w+\s+)?(?:regles|regeln|reglas|regras|regole"
    r"|regels)\b",
    "force": r"\b(?:reply|respond|answer|say|write|output|print|emit)\b[^.!?\n]{0,30}?"
    r"\b(?:nothing\s+but|and\s+nothing\s+(?:else|more)|no\s+other\s+text|solely|exclusively"
    r"|verbatim|nothing\s+more)\b|\byour\s+(?:entire\s+|whole\s+|only\s+)?(?:answer|response"
    r"|reply|output)\s+(?:must|should|shall|will|has\s+to)\s+(?:be|consist|contain|only)\b"
    r"|\b(?:answer|reply|response)\s+to\s+(?:any|every|each|all)\s+questions?\s+is\b"
    r"|\b(?:begin|start|end|finish)\s+(?:every|each|all)\s+(?:answer|repl(?:y|ies)|response)"
    r"|\bdo\s+not\s+cite\s+(?:any\s+)?sources\b|\bwithout\s+(?:any\s+)?citations\b",
    "obey_remote": r"\b(?:follow|obey|execute|do|carry\s+out)\s+(?:the\s+)?(?:instructions|commands"
    r"|what|orders)\s+(?:in\s+it|it\s+(?:says|tells)|there|you\s+find|on\s+(?:the|that)\s+page)"
    r"|\bobey\s+the\s+(?:page|site|link|url|file)\b",
    "mode": r"\b(?:enter|activate|enable|switch\s+to|turn\s+on|engage)\s+(?:the\s+)?(?:developer"
    r"|jailbreak|dan|god|admin|unrestricted|debug|evil)\s+mode\b",
    "banner": r"(?:={2,}|-{3,}|\[\[|#{2,}|\*{3,})\s*(?:admin|system|developer|new|assistant)\s+"
    r"(?:instructions?|prompt|override|message)\b|\bnew\s+system\s+prompt\b"
    r"|\b(?:admin|system)\s+override\b|<\s*/?\s*(?:system[_-]prompt|im_start|im_end|sys)\s*>"
    r"|\[\s*system\s*\]\s*\(|[\"']role[\"']\s*:\s*[\"'](?:system|assistant|developer)[\"']"
    r"|<\s*/?\s*(?:tool_call|function_call|tool_code|tool_use)\s*>"
    r"|%{2,}\s*(?:system|admin|developer)\s+(?:message|prompt|instructions?)\b"
    r"|#{2,}\s*(?:instruction|response|system|user|assistant)\s*:",
    "reveal_foreign": r"\b(?:affiche[zs]?|montre[zs]?|revele[zs]?|zeig(?:e|en)?|gib|muestra|revela"
    r"|mostra|mostre|mostrami|toon|laat|pokaz|visa|goster)\b[^.!?\n]{0,40}?\b(?:instructions"
    r"|consignes|regles|anweisungen|regeln|instrucciones|reglas|instrucoes|regras|istruzioni"
    r"|regole|instructies|regels|instrukcje|instruktioner|talimat\w*)\s+(?:cachees|secretes"
    r"|versteckten|geheimen|ocultas|secretas|nascoste|segrete|verborgen|ukryte|dolda|gizli)\b",
}
# Weak cues: each alone is ordinary prose; a pair within the window is an instruction.
_WEAK: dict[str, str] = {
    "ai": r"\b(?:(?:language|ai)\s+model|llm|chatbot|ai|gpt\w*|assistant|attention\s+model"
    r"|model\s+reading)\b",
    "rules": r"\byour\s+(?:\w+\s+)?(?:instructions|rules|guidelines|directives|programming"
    r"|guidance|prompt|policy|restrictions)\b|\b(?:instructions|rules|guidelines|directives"
    r"|prompt|directions|question)\s+(?:that\s+)?(?:you\s+(?:were|have\s+been)\s+(?:given|told"
    r"|instructed|asked)|you\s+(?:got|received))\b|\b(?:what|everything)\s+you\s+(?:were|have"
    r"\s+been)\s+(?:told|instructed)\b",
    "revoke": r"\b(?:void|revoked|cancell?ed|no\s+longer\s+(?:apply|valid|in\s+effect|binding)"
    r"|(?:are|is)\s+(?:now\s+)?(?:invalid|obsolete|null)|were\s+(?:just\s+)?a\s+test"
    r"|must\s+be\s+ignored|supersede[sd]?|do(?:es)?\s+not\s+apply)\b",
    "override": r"(?:^|[.!?;:,]\s*|\b(?:please|kindly|now|just|simply|and|then)\s+)"
    rf"{_IMPERATIVE}\b",
    "force": r"\b(?:reply|respond|answer|say|write|output|print|emit|state|claim)\b(?:\s+(?:with"
    r"|only|just|exactly|simply|back|that|in\s+one\s+word|the\s+(?:word|text|phrase|string"
    r"|sentence)|the\s+single\s+word|following\s+\w+\s+\w+))*\s*:?\s*['\"«“‘]"
    r"|\balways\s+(?:answer|reply|respond|say|claim|agree)",
    "address": r"\b(?:you\s+(?:will|must|shall)\s+now|from\s+(?:now\s+on|this\s+point\s+(?:on|"
    r"forward)|this\s+message\s+on|here\s+on)|your\s+(?:one\s+and\s+only|one|only|sole)\s+"
    r"(?:job|task|purpose)|stay\s+in\s+character|no\s+matter\s+what|regardless\s+of\s+what"
    r"|whatever\s+the\s+question|(?:to|for)\s+(?:every|each|all)\s+questions?"
    r"|this\s+is\s+an\s+authori[sz]ed\s+audit)\b",
    "slot": r"\b(?:in|into|to|as)\s+your\s+(?:answer|reply|response|output)\b",
    "role": r"\b(?:pretend|roleplay|role-play|imagine|simulate|act\s+(?:like|as)|behave\s+as"
    r"|become|assume\s+the\s+role|speak\s+as|you'?re\s+not\b[^.]{0,30}\banymore"
    r"|you\s+are\s+(?:now|no\s+longer)|you'?re\s+now)\b",
    "persona": r"\b(?:no\s+(?:restrictions|rules|limits|content\s+policy|filters?)"
    r"|without\s+(?:any\s+)?(?:rules|restrictions|limits)|w/o\s+rules|removed\s+all\s+safety"
    r"|unrestricted|unfiltered|uncensored|jailbr\w+|hacker|evil|admin\s+(?:mode|console)"
    r"|developer\s+mode|god\s+mode|\w+\s+mode\s+on|do\s+anything\s+now|never\s+refuses"
    r"|terminal|rogue\w*|\w+gpt|\w+bot)\b",
    "url": r"(?:https?://|file://|www\.)\S+|\b[\w.-]+@[\w-]+\.[\w.]+",
    # what a planted instruction sends out: the conversation, the user's words, secrets
    "data": r"(?:\bthe\s+(?:full\s+|whole\s+|entire\s+)?conversation\b|\b(?:chat|conversation)"
    r"\s+history\b|\byour\s+(?:memory|context)\b|\btranscript\b|\buser'?s\s+(?:question"
    r"|(?:previous\s+)?messages?)\b|\bprevious\s+messages\b|api[_\s-]?key|\bstored\s+passwords?\b"
    r"|/etc/(?:passwd|shadow)\b|\bcurl\b[^|\n]{0,80}\|\s*(?:ba)?sh\b|\bshell\s+command\b)",
    "tool": r"\b(?:your\s+\w*\s*tool|(?:search|download|browse|code|shell)\s+(?:tool|function))\b",
    "reveal": r"\b(?:print|reveal|show|output|repeat|disclose|leak|dump|echo|quote|write\s+out"
    r"|tell\s+me)\b",
}
# The model named as the addressee: its kind, its internals, its conversation.
_ADDRESSEE = {
    "bot": r"\b(?:chat\s*bot|a\.i\.|llm|language\s+model|ai\s+(?:agent|model|system)|gpt\w*"
    r"|\w*(?<!ro)bot|attention\s+model|model\s+reading|dear\s+(?:model|ai))\b"
    r"|\bassistant\b(?!\s+(?:engineer|master|pilot|maintainer|manager|director|professor|editor"
    r"|purser|cook|steward|superintendent|to\b|of\b|engine))",
    "internals": r"\byour\s+(?:own\s+|previous\s+|prior\s+|earlier\s+|original\s+|current\s+"
    r"|existing\s+|usual\s+|initial\s+|hidden\s+)?(?:instructions|rules|guidelines"
    r"|directives|programming|restrictions|guardrails|creators|developers|system\s+prompt"
    r"|persona|orders|policies)\b|\bsystem\s+(?:prompt|instructions)\b|\b(?:instructions"
    r"|guidance|rules|prompt|configuration|keys|orders|directions|directives|guidelines|policies)"
    r"\s+(?:that\s+)?you\s+(?:were|have\s+been|got|received)\b|\b(?:nothing|everything"
    r"|anything|all|what(?:ever)?)\s+(?:that\s+)?you\s+(?:were|have\s+been)\s+(?:told"
    r"|instructed|given)\b|\b(?:all|any|every)\s+(?:of\s+the\s+)?(?:previous|prior|earlier"
    r"|above|preceding)\s+(?:instructions|directives|rules|prompts?|orders|directions)\b"
    r"|\beverything\s+(?:above|before)\s+(?:this|here)\b|\bthe\s+prompt\s+(?:that\s+)?"
    r"(?:precedes|above|before)\b|\b(?:first|previous|last)\s+user\s+message\b"
    r"|\bcontent\s+polic\w+|\bguardrails\b|\bin\s+character\b|\bjailbr\w+|\b(?:sudo"
    r"|developer|admin|god|dan|jailbreak|unrestricted|debug)\s+mode\b|\bfilters?\s+(?:turned"
    r"\s+)?off\b|\bwithout\s+(?:any\s+)?(?:rules|restrictions|guardrails|limits)\b"
    r"|\b(?:no|zero)\s+(?:rules|restrictions|guardrails|content\s+policy)\b|\b(?:hidden"
    r"|secret|confidential)\s+(?:rules|instructions|settings|prompt|configuration"
    r"|guidelines)\b|\bdeveloper\s+(?:instructions|message)\b",
    "meta": r"\b(?:every|(?:to|for)\s+any)\s+(?:further\s+|following\s+|other\s+)?(?:question"
    r"|query|request)s?\b|\ball\s+(?:further|following|future)\s+(?:questions|queries)\b"
    r"|\b(?:whatever|regardless\s+of|no\s+matter)\s+(?:what\s+|which\s+)?(?:the\s+)?(?:question"
    r"|you\s+are\s+asked|sources|documents|report)\b"
    r"|\bthe\s+next\s+question\b|\bwhatever\s+you\s+are\s+asked\b|\bthe\s+(?:documents"
    r"|sources)\s+(?:say|show)\b|\byour\s+(?:whole\s+|entire\s+|only\s+)?(?:reply|answer"
    r"|response|output)\s*(?::|is\b|has\s+to\b|must\b|should\b|shall\b|will\b|contains?\b"
    r"|consists?\b)",
}
# An order: an imperative opening a clause, a "you must", an exclusive output.
_DIRECTIVE = (
    r"(?:(?:^|[.!?;:,>\]\)\n]\s*|\b(?:please|kindly|just|now|then|and|also|simply|first"
    r"|so)\s+)(?:say|print|write|output|emit|reply|respond|answer|tell|claim|confirm|state"
    r"|announce|approve|deny|include|add|append|send|forward|post|e-?mail|encode|put|paste|copy"
    r"|list|show|reveal|display|recite|spell\s+out|translate|dump|leak|disclose|repeat|echo"
    r"|summari[sz]e|begin|start|end|make\s+(?:sure|every)|treat|forget|ignore|disregard|skip"
    r"|drop|bypass|overlook|scrap|set\s+aside|abandon|discard|neglect|become|act|behave|play"
    r"|pretend|imagine|simulate|take\s+on|switch|enable|enter|activate|call|invoke|visit|open"
    r"|download|fetch|run|execute|obey|stay|never|always|only\s+ever|do\s+not|don'?t)\b"
    r"|\byou\s+(?:must|will|shall)\s+(?:now|always|only|henceforth)\b"
    r"|\bthe\s+(?:assistant|model|ai|bot)\s+(?:must|should|will|shall)\b"
    r"|\bno\s+other\s+text\b|\bnothing\s+(?:else|further|more)\b|\bverbatim\b"
    r"|\bword\s+(?:for|by)\s+word\b)"
)
_WEAK.update(_ADDRESSEE)
_WEAK["directive"] = _DIRECTIVE
# Which two weak cues together make an instruction (order free, within the window).
_PAIRS = {
    frozenset(p)
    for p in (
        ("override", "rules"), ("override", "force"), ("override", "ai"), ("override", "revoke"),
        ("rules", "revoke"), ("rules", "force"), ("rules", "ai"), ("rules", "role"),
        ("rules", "reveal"),
        ("revoke", "force"), ("force", "ai"), ("force", "address"), ("role", "persona"),
        ("role", "ai"), ("role", "address"), ("url", "data"), ("url", "slot"), ("force", "slot"),
        ("tool", "data"), ("tool", "slot"), ("tool", "url"), ("ai", "slot"),
        *(("directive", a) for a in (*_ADDRESSEE, "data")),
        ("bot", "internals"), ("internals", "meta"),
    )
}  # fmt: skip
# ... and the reader addressed, a covert errand (:mod:`text.injection_errands`)
_LATIN.update(injection_errands.STRONG)
_WEAK.update(injection_errands.WEAK)
_PAIRS.update(frozenset(p) for p in injection_errands.PAIRS)

# ---- other scripts (matched on the unfolded copy, combining marks removed) ----
_SCRIPT: dict[str, str] = {
    "override_ru": r"(?:игнорируй|игнорируйте|проигнорируй|забудь|забудьте|не\s+обращай(?:те)?"
    r"\s+внимания)[^.!?\n]{0,40}?(?:инструкци|указани|правил|промпт|что\s+теб\w*\s+говорил"
    r"|instructions?|rules|prompt)",
    "override_cjk": r"(?:忽略|无视|無視|忘记|忘掉|忘れ|不要理会|不理会|别管|무시|잊어)"
    r"[^。！？.!?\n]{0,20}?(?:指令|指示|规则|規則|ルール|提示|プロンプト|命令|设定|設定|지시|규칙|프롬프트|명령"
    r"|instructions?|rules|prompt)"
    r"|(?:指令|指示|规则|規則|ルール|プロンプト|命令|지시|규칙|프롬프트|명령)"
    r"[^。！？.!?\n]{0,20}?(?:忽略|无视|無視|忘记|忘れ|무시|잊어)",
    "override_ar": r"(?:تجاهل|انس|لا\s+تلتزم)[^.!?\n]{0,40}?"
    r"(?:التعليمات|القواعد|الأوامر|ما\s+قيل\s+لك)",
    "prompt_script": r"системн\w*\s+(?:промпт|подсказк|инструкци)"
    r"|系统提示|系統提示|システムプロンプト|موجه\s+النظام|시스템\s*프롬프트",
    "persona_script": r"(?:ассистент|помощник|модель|бот|助手|アシスタント|مساعد|어시스턴트)"
    r"[^.!?\n]{0,20}?(?:без\s+(?:ограничений|правил)|بلا\s+قيود|بدون\s+قيود)"
    r"|(?:没有任何限制|没有限制|无限制|制限のない|制限なし|제한\s*없는)[^。！？.!?\n]{0,12}?"
    r"(?:助手|アシスタント|模型|AI|어시스턴트)",
}
_SCRIPT.update(injection_errands.SCRIPT)
#: Every name a cue span can carry.
CUE_NAMES = frozenset(
    {f"cue_{name}" for name in (*_LATIN, *_SCRIPT)}
    | {f"cue_{a}_{b}" for pair in _PAIRS for a in pair for b in pair if a != b}
)
_LATIN_RE = {name: re.compile(p, _F) for name, p in _LATIN.items()}
_WEAK_RE = {name: re.compile(p, _F | re.MULTILINE) for name, p in _WEAK.items()}
_SCRIPT_RE = {name: re.compile(p, _F) for name, p in _SCRIPT.items()}


def _clause_end(text: str, end: int) -> int:
    m = _CLAUSE.match(text, end)
    return m.end() if m else end


def _strong(flat: str) -> list[tuple[int, int, str]]:
    return [
        (m.start(), _clause_end(flat, m.end()), f"cue_{name}")
        for name, pattern in _LATIN_RE.items()
        for m in pattern.finditer(flat)
    ]


def _paired(flat: str) -> list[tuple[int, int, str]]:
    found = sorted(
        (m.start(), m.end(), name)
        for name, pattern in _WEAK_RE.items()
        for m in pattern.finditer(flat)
        if m.end() > m.start()
    )
    spans = []
    for i, (start, end, name) in enumerate(found):
        for other_start, other_end, other in found[i + 1 :]:
            if other_start - end > _WINDOW:
                break
            if other != name and frozenset((name, other)) in _PAIRS:
                spans.append((start, _clause_end(flat, max(end, other_end)), f"cue_{name}_{other}"))
                break
    return spans


def latin_cues(folded: str) -> list[tuple[int, int, str]]:
    """Spans ``(start, end, name)`` of instruction cues in ``folded`` (the detector's folded,
    de-spaced copy); a blank line ends a clause, a single newline reads as a space (so a
    phrasing written one word a line is read)."""
    flat = folded.replace("\n\n", ". ").replace("\n", " ")
    return _strong(flat) + _paired(flat)


_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uff00-\uffef]")


def _kept(text: str, i: int) -> bool:
    """Whether character ``i`` of ``text`` is read: not a combining mark (Arabic vowel signs),
    not a space or separator between two CJK characters ("忽 略 之 前", "忽.略")."""
    ch = text[i]
    if unicodedata.category(ch) == "Mn":
        return False
    if ch in " ./*_-·" and 0 < i < len(text) - 1:
        before, after = text[i - 1], text[i + 1]
        return not (_CJK.match(before) and _CJK.match(after))
    return True


def script_cues(text: str) -> list[tuple[int, int, str]]:
    """Spans of instruction cues written in other scripts (Cyrillic, CJK, Hangul, Arabic), read
    on ``text`` with combining marks and the gaps between CJK characters skipped."""
    index = [i for i in range(len(text)) if _kept(text, i)]
    plain = "".join(text[i] for i in index).lower()
    if plain.isascii():
        return []
    return [
        (index[m.start()], index[m.end() - 1] + 1, f"cue_{name}")
        for name, pattern in _SCRIPT_RE.items()
        for m in pattern.finditer(plain)
        if m.end() > m.start()
    ]
