# ruff: noqa: E501  (one question a line)
"""Thread pattern questions, set 4: usrp-users problem areas that none of sets 1, 2 and 3
(``make_thread_pattern_questions{,2,3}.py``) asks about, each asked once in a user's own words.

Written by someone who does not work on the answers and read neither the answering code nor any
answer or score of sets 1 to 3; only their area lists were read, to keep clear of them. Areas
close to one of theirs were left out (power calibration in dBm: set 1 asks about calibration;
the RFNoC image builder's YAML: set 1 asks about FPGA image builds). The forms vary on purpose:
"what usually goes wrong", "common reasons", "what do people run into", "typical fixes", "is it
flaky, what breaks", a question naming a product model, a question naming only a symptom.

An area was kept when at least ten threads of the list name it, counted as set 3 counts (its
:func:`threads`: a thread names an area when the words of ``AREAS``, a regular expression, occur
in one of its subjects or in the text a sender wrote themself; announcements not counted). The
expressions were narrowed after reading what they matched (bare "trigger", "license", "VM" and
"pulse" matched code, licence headers and signatures, and were replaced by phrases); areas that
fell under ten were dropped (Docker and virtual machines, licensing, TX/RX port isolation on its
own). Threads are grouped by their first reference, so a thread whose replies lost their
references counts more than once: the counts are of threads as set 3 groups them, not of
distinct subjects. ``--count`` recounts them from the shared archive (the counts in ``AREAS``
are what it printed when the set was written). Lines as in sets 1 to 3 (``kind`` pattern,
``question``, ``source`` usrp, ``area``: a label nothing reads to answer, ``min_groups`` 2); no
line names a dominant fix, as none was read closely enough to say which one dominates.

Split like sets 1 to 3 (set 1's :func:`write_halves`), with its own seed, before anything
answered any of them: the lines are shuffled with ``random.Random(SPLIT_SEED)`` and alternate
between ``dev`` and ``heldout``::

    python benchmarks/questions/make_thread_pattern_questions4.py          # writes both halves
    python benchmarks/questions/make_thread_pattern_questions4.py --check  # verifies them
    python benchmarks/questions/make_thread_pattern_questions4.py --count ../shared/data/email/usrp-users
"""

from __future__ import annotations

import argparse
from pathlib import Path

from make_thread_pattern_questions import write_halves  # split and written as set 1
from make_thread_pattern_questions3 import count  # threads grouped, read and counted as set 3

SPLIT_SEED = 262804
#: area -> (the words that name it, threads that named it when the set was written).
AREAS: dict[str, tuple[str, int]] = {
    "Keep One in N block": (r"keep[_ -]?one[_ -]?in[_ -]?n|keeponeinn", 13),
    "RFNoC FFT block and fosphor": (r"fft block|fosphor|fft_cp|rfnoc.{0,10}fft|fft.{0,10}rfnoc", 32),
    "rfnoc_modtool and OOT modules": (r"rfnoc_?modtool|out[- ]of[- ]tree|\bOOT\b", 47),
    "triggering": (r"\b(external|hardware|start|rx|tx) trigger|trigger (input|signal|line|port|pulse|in\b|out\b)|\btrigger(ing|ed)? (the )?(rx|tx|radio|capture|recording|replay|receiv|transmi)|triggering|\bTRIG\b", 15),
    "radar": (r"radar|chirp|\bPRF\b|FMCW", 10),
    "register access": (r"\bpeek(32|64)?\b|\bpoke(32|64)?\b|user register|set_user_reg|readback|(read|write|access)(ing)? (the |a |to )?registers?|registers? (read|write|access)", 34),
    "AXI-Stream handshake": (r"AXI[- ]?Stream|\btlast\b|\btvalid\b|\btready\b|axis_", 33),
    "FPGA clock domains": (r"ce_clk|ce clock|clock domain|bus_clk|radio_clk|custom clock|\bMMCM\b|clocking wizard|rfnoc_chdr_clk|clock crossing", 30),
    "timing closure": (r"timing (closure|constraint|violation|fail|error|not met|requirement)s?|\bWNS\b|negative slack|\bslack\b", 11),
    "Xilinx IP cores": (r"\bIP (core|locked|repo|catalog|block)s?|\.xci\b|user ip|ip cores?", 10),
    "digital modulation": (r"QPSK|BPSK|\bQAM\b|\bGMSK\b|\bFSK\b|constellation|demodulat", 10),
    "sensors and health": (r"get_mboard_sensor|get_rx_sensor|get_tx_sensor|temp_fpga|health status|\bref_locked\b|\blo_locked\b|FPGA (core )?temperature|sensor issue", 16),
    "booting": (r"reboot|autoboot|\bboot(s|ing|ed)? (up|fail|loop|process)|boot\.bin|u-boot|won'?t boot|\bboot loop|fails? to boot", 20),
    "crashes and segfaults": (r"segfault|segmentation fault|core dump(ed)?|\bcrash(es|ed|ing)?\b", 13),
    "hangs and deadlocks": (r"\bhang(s|ing)?\b|\bfreez(e|es|ing)\b|deadlock|\bstuck\b|unresponsive", 22),
    "multi_usrp C++ API": (r"multi_usrp", 37),
    "sample timestamps": (r"timestamp|time_spec", 81),
    "error codes and async messages": (r"rx_metadata|async_metadata|error_code|ERROR_CODE_|async (msg|message)|recv_async_msg", 16),
    "Linux distribution versions": (r"ubuntu ?\d\d\.\d\d|ubuntu 2[024]\b|debian|fedora|\bRHEL\b|rocky linux|arch linux", 57),
    "host CPU tuning": (r"thread priority|set_thread_priority|real-?time (priority|scheduling)|rtprio|cpu governor|cpufreq|cpupower|isolcpus|CPU (usage|load|core|affinity)|performance governor", 15),
    "1 GbE link": (r"\b1 ?GbE\b|1G Ethernet|gigabit ethernet|\b1 ?Gbps|RJ-?45|\b1G (port|ethernet|link|interface)", 23),
    "gain settings": (r"set_(rx|tx)_gain|\bgain (setting|range|value|table|stage|level)s?|normali[sz]ed gain|\bAGC\b|automatic gain", 16),
    "maximum input power": (r"max(imum)? (input|RF input|RX input) power|damag(e|ed|ing) the|input power|\bfried\b|burn(ed|t) out|\bESD\b", 10),
    "LO leakage and DC offset": (r"LO (leakage|signal|feedthrough|spur)|DC (offset|spike|component)|cent(er|re) (spike|peak)|carrier leak", 11),
    "frequency offset": (r"frequency (offset|error|accuracy|stability|shift(ed)?|drift)|\bppm\b|\bCFO\b|frequency shifted", 13),
    "sweeping and retuning": (r"\bsweep|scan(ning)? (the )?(band|spectrum|frequenc)|frequency hopping|\bhopping|retun|changing (the )?frequency|frequency (change|switch)", 13),
    "external and shared LO": (r"external LO|LO (sharing|export|source|distribution|in|out|input|output)\b|lo_source|lo_export|lo_distribution", 10),
    "clipping and distortion": (r"saturat|clipping|clipped|distort|compression|intermod|nonlinear", 11),
    "no transmit output": (r"not transmitting|no (real )?transmission|no (RF )?output|nothing (is )?(transmitted|coming out)|no signal|doesn'?t transmit|not (seeing|getting) any (signal|output)", 11),
    "RFSoC data converters": (r"RFSoC|\bRFDC\b|RF-?DAC|RF-?ADC|data converter", 17),
    "HF and low frequencies": (r"LFRX|LFTX|BasicRX|BasicTX|\bHF\b|low frequenc|\b1-30 MHz", 18),
    "recorded sample files": (r"complex64|complex float|interleaved|fromfile|\.dat\b|\bbinary file|sigmf|read (the )?(samples|file|data) (in|into|with) (python|matlab|numpy)", 15),
    "NI USRP-29xx and LabVIEW": (r"USRP-?29\d\d|NI[- ]?29\d\d|NI USRP|NI-USRP|LabVIEW", 28),
    "PCIe and NI-RIO": (r"PCIe|\bMXI\b|NI-?RIO|\bRIO\b", 12),
    "duplex and TDD": (r"half[- ]duplex|full[- ]duplex|\bTDD\b|time[- ]division duplex|TX.{0,3}RX (port )?isolation|port isolation|(TX|transmit) and (RX|receive) (at the same time|simultaneous)", 10),
}  # fmt: skip
#: (area, the question as a user asks it).
QUESTIONS: tuple[tuple[str, str], ...] = (
    ("Keep One in N block", "Has anyone had luck with the Keep One in N RFNoC block? What usually goes wrong when people put it in their image or try to use it?"),
    ("RFNoC FFT block and fosphor", "What do people run into when they add the RFNoC FFT block, or fosphor, to an FPGA image?"),
    ("rfnoc_modtool and OOT modules", "Typical fixes when an out-of-tree module made with rfnoc_modtool won't build, won't install or isn't picked up?"),
    ("triggering", "I want the radio to start capturing on an external trigger. What problems have others hit with triggered RX or TX, and how did they get around them?"),
    ("radar", "People building pulsed or FMCW radars with a USRP: what usually goes wrong for them?"),
    ("register access", "Reading and writing FPGA registers from the host (peek/poke, user registers) times out or gives me junk. What are the common reasons?"),
    ("AXI-Stream handshake", "What mistakes do people make with tvalid, tready and tlast in their own AXI-Stream blocks?"),
    ("FPGA clock domains", "ce_clk, radio_clk, bus_clk or my own MMCM: what goes wrong with clocks and clock crossings in custom USRP FPGA designs?"),
    ("timing closure", "My FPGA build doesn't meet timing. What usually causes timing violations in USRP builds and what do people do about them?"),
    ("Xilinx IP cores", "Common reasons Xilinx IP cores (.xci files, locked IP, an extra IP repo) break a USRP image build?"),
    ("digital modulation", "QPSK (or some other digital modulation) over a USRP link won't demodulate cleanly. What are the usual culprits?"),
    ("sensors and health", "Reading the device sensors (temperature, ref_locked, lo_locked): what do people run into, and can I trust them?"),
    ("booting", "My radio sometimes doesn't come up after power-on, or a reboot takes ages. What usually causes boot trouble?"),
    ("crashes and segfaults", "My UHD program segfaults or crashes outright. What did people usually find was behind it?"),
    ("hangs and deadlocks", "No error at all, the program just freezes and sits there. What typically makes a USRP application hang or deadlock?"),
    ("multi_usrp C++ API", "Writing against multi_usrp in C++: what are the common pitfalls?"),
    ("sample timestamps", "The timestamps on my received samples don't line up with what I expect. Typical reasons?"),
    ("error codes and async messages", "What do the error codes in the RX metadata and the async messages usually mean in practice, and what clears them?"),
    ("Linux distribution versions", "Is UHD flaky on newer Ubuntu releases like 24.04, or on Debian or Fedora? What breaks?"),
    ("host CPU tuning", "Do the CPU governor, thread priority and core pinning really matter? What did people find when they tuned the host CPU for streaming?"),
    ("1 GbE link", "Running a USRP over plain 1 gigabit Ethernet: what do people run into?"),
    ("gain settings", "The gain on my USRP doesn't behave the way I'd expect. Common reasons a gain setting seems wrong or does nothing?"),
    ("maximum input power", "How much power can go into the RX port safely, and what happened to people who overdrove or damaged the front end?"),
    ("LO leakage and DC offset", "There's a big spike right at the centre frequency of my spectrum. What usually causes it and how do people get rid of it?"),
    ("frequency offset", "My received signal sits a few kHz away from where it should be. Common reasons for that frequency offset?"),
    ("sweeping and retuning", "Sweeping a wide band by retuning over and over is slow and loses samples. What do people usually do about it?"),
    ("external and shared LO", "Sharing an LO between channels or feeding in an external LO: what tends to go wrong?"),
    ("clipping and distortion", "My signal comes out distorted or clipped, on receive or on transmit. What's typically behind that?"),
    ("no transmit output", "Everything seems to run but nothing shows up on the spectrum analyzer when I transmit. What are the usual reasons?"),
    ("RFSoC data converters", "On the RFSoC-based radios, what problems do people hit with the RF data converters (the RFDC, its ADCs and DACs)?"),
    ("HF and low frequencies", "Receiving HF, below 30 MHz, with an LFRX or BasicRX board: what do people typically struggle with?"),
    ("recorded sample files", "I saved samples to a file and reading them back in Python or MATLAB gives garbage. Common mistakes?"),
    ("NI USRP-29xx and LabVIEW", "I have an NI-branded USRP-2943R that came with LabVIEW. What problems do people have with the NI USRP-29xx models, and how did they get them going with UHD?"),
    ("PCIe and NI-RIO", "Connecting an X310 over PCIe with the NI-RIO driver: is it flaky, and what breaks?"),
    ("duplex and TDD", "Transmitting and receiving at the same time, or switching fast between them for TDD: what usually goes wrong?"),
)  # fmt: skip


def questions() -> list[dict[str, object]]:
    """Every question, in the order written."""
    return [
        {"kind": "pattern", "question": q, "source": "usrp", "area": area, "min_groups": 2}
        for area, q in QUESTIONS
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="verify the files, write nothing")
    parser.add_argument("--count", type=Path, metavar="FOLDER", help="count threads per area")
    args = parser.parse_args(argv)
    if args.count:
        for area, n in count(args.count, AREAS).items():
            print(f"{area:32} {n:4d}  (written with {AREAS[area][1]})")  # noqa: T201
        return 0
    return write_halves("pattern_threads4", questions(), SPLIT_SEED, args.check)


if __name__ == "__main__":
    raise SystemExit(main())
