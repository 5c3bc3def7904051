# ruff: noqa: E501  (one question a line)
"""Thread pattern questions, set 3: usrp-users problem areas that neither set 1
(``make_thread_pattern_questions.py``) nor set 2 (``make_thread_pattern_questions2.py``) asks
about, each asked once in a user's own words rather than from one template.

Written by someone who does not work on the answers and had not seen any answer to sets 1 or 2.
Each area was chosen by counting the threads of the list that name it: a thread names an area when
the words of ``AREAS`` (a regular expression) occur in one of its subjects or in the text a sender
wrote themself (quoted lines and what follows "On … wrote:" left out); release announcements are
not counted. Every area is named by at least ten threads; ``--count`` recounts them from the
shared archive and prints the table (the counts in ``AREAS`` are what it printed when the set was
written). Lines as in sets 1 and 2 (``kind`` pattern, ``question``, ``source`` usrp, ``area``: a
label nothing reads to answer, ``min_groups`` 2); no line names a dominant fix, as none was read
closely enough to say which one dominates.

Split like sets 1 and 2, with its own seed, before Bosun answered any of them: the lines are
shuffled with ``random.Random(SPLIT_SEED)`` and alternate between ``dev`` and ``heldout``::

    python benchmarks/questions/make_thread_pattern_questions3.py          # writes both halves
    python benchmarks/questions/make_thread_pattern_questions3.py --check  # verifies them
    python benchmarks/questions/make_thread_pattern_questions3.py --count ../shared/data/email/usrp-users
"""

from __future__ import annotations

import argparse
import email
import email.policy
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

from make_thread_pattern_questions import write_halves  # split and written as set 1

HERE = Path(__file__).resolve().parent
SPLIT_SEED = 262803
#: area -> (the words that name it, threads that named it when the set was written).
AREAS: dict[str, tuple[str, int]] = {
    "B200mini": (r"\bB20[05][ -]?mini\b|\bB205\b|\bB200mini", 30),
    "X310": (r"\bX3[01]0\b", 230),
    "building UHD from source": (r"from source|\bcmake\b|make -j|make install", 31),
    "installing UHD packages": (r"\bPPA\b|apt(-get)? install|libuhd|uhd-host|dnf install|package manager", 34),
    "images downloader": (r"uhd_images_downloader|UHD_IMAGES_DIR|images (directory|folder|path)", 11),
    "burst transmission": (r"end_of_burst|start_of_burst|\bEOB\b|\bburst(s|y)?\b", 40),
    "IP address": (r"\bIP address|static IP|\bDHCP\b|\bifconfig\b|\bnetplan\b|\bnmcli\b", 24),
    "socket buffers": (r"socket buffer|send_buff_size|recv_buff_size|rmem_max|wmem_max", 12),
    "EEPROM": (r"\bEEPROM\b|burn_mb_eeprom|burn_db_eeprom", 11),
    "OFDM": (r"\bOFDM\b|802\.11|\bwi-?fi\b", 19),
    "srsRAN and OAI": (r"srsran|srslte|openairinterface|\bOAI\b|\bLTE\b|\b5G\b", 19),
    "uhd_fft": (r"uhd_fft|spectrum analy[sz]er", 14),
    "rx_samples_to_file": (r"rx_samples_to_file|tx_samples_from_file", 29),
    "wire format": (r"\bsc8\b|\bsc16\b|\bfc32\b|\botw\b|wire ?format|cpu format", 18),
    "latency": (r"\blatenc(y|ies)\b", 27),
    "subdev spec": (r"subdev", 31),
    "cross-compiling and Yocto": (r"cross[- ]?compil|\bYocto\b|openembedded|bitbake|\bkas\b|\bSDK\b", 33),
    "CHDR": (r"\bCHDR\b", 40),
    "UHD upgrade": (r"\bmigrat|upgrad\w* (to )?(UHD|the UHD|4\.)|after (upgrading|updating)|newer (version of )?UHD|older (version of )?UHD", 11),
    "stream commands": (r"stream_cmd|STREAM_MODE_|num_samps_and_done|stream command", 26),
    "uhd_usrp_probe": (r"uhd_usrp_probe", 47),
    "tx_waveforms": (r"tx_waveforms", 14),
    "10 GbE and SFP+": (r"\b10 ?GbE\b|\b10 ?Gig|\bSFP\+|\bSFP[01]?\b|\b10G\b", 88),
    "DRAM and DMA FIFO": (r"DMA ?FIFO|\bDRAM\b", 34),
    "loopback": (r"loopback|loop-back", 44),
    "two channels": (r"two channels|2 channels|dual[- ]channel|both channels", 19),
    "kernel and NIC drivers": (r"kernel (module|driver|version|update)|\bdkms\b|\bixgbe\b|\bi40e\b|\bmlx5\b|\bice driver|NIC driver", 17),
    "device arguments": (r"device args|dev_args|device_args|device arguments", 33),
    "LO offset and tune requests": (r"tune_request|lo_offset|LO offset|integer-N|\bint_n\b|\bint-n\b", 23),
    "recv call": (r"\brecv\(|\.recv\b|num_rx_samps", 14),
    "serial console and JTAG": (r"serial console|\bUART\b|minicom|JTAG", 19),
    "sample scaling": (r"dBFS|full[- ]scale|scal(e|ing) (of|factor)|amplitude", 12),
    "analog bandwidth": (r"set_rx_bandwidth|set_tx_bandwidth|analog (filter )?bandwidth|bandwidth filter", 10),
}  # fmt: skip
#: (area, the question as a user asks it).
QUESTIONS: tuple[tuple[str, str], ...] = (
    ("B200mini", "My B200mini keeps acting up. What do people on the list usually find wrong with these little boards, and what sorted it out?"),
    ("X310", "For the X310 in particular, which problems come up again and again, and how do folks typically get past them?"),
    ("building UHD from source", "I'm compiling UHD myself and the build keeps failing. What are the usual snags when building it from source, and how were they fixed?"),
    ("installing UHD packages", "Installing UHD from the distro packages or the Ettus PPA: what tends to go wrong, and what do people do about it?"),
    ("images downloader", "UHD can't find its FPGA images or uhd_images_downloader fails. What's normally behind that and how is it resolved?"),
    ("burst transmission", "When transmitting in bursts with start- and end-of-burst flags, what mistakes do people typically make?"),
    ("IP address", "Setting or changing the IP address of a networked USRP seems to trip a lot of people up. Typical causes and fixes?"),
    ("socket buffers", "What's the story with those socket buffer size warnings (rmem_max, send_buff_size): why do they show up and what do people change?"),
    ("EEPROM", "Which EEPROM-related problems show up on the list, and how did people recover or reprogram it?"),
    ("OFDM", "People trying OFDM or Wi-Fi style links with USRPs: what usually stops them from working?"),
    ("srsRAN and OAI", "Running srsRAN or OpenAirInterface on a USRP, what are the recurring headaches and their remedies?"),
    ("uhd_fft", "uhd_fft shows nothing useful or misbehaves for me. According to past threads, what typically causes that?"),
    ("rx_samples_to_file", "Any common gotchas with rx_samples_to_file and tx_samples_from_file that others have hit?"),
    ("wire format", "Are there typical mistakes with sc16 vs fc32 (or sc8) and the over-the-wire format, and what do people recommend instead?"),
    ("latency", "Why is the latency through a USRP so often higher than people expect, and what has helped bring it down?"),
    ("subdev spec", "Subdev specs confuse me. What errors do people usually get from them and how are they corrected?"),
    ("cross-compiling and Yocto", "Building a Yocto image or cross-compiling software for an embedded USRP: what breaks most often?"),
    ("CHDR", "When people handle CHDR packets directly, what do they most commonly get wrong?"),
    ("UHD upgrade", "After moving to a newer UHD release, what kinds of things usually stop working, and how do people get them going again?"),
    ("stream commands", "My stream commands don't do what I expect (start, stop, a fixed number of samples). What's usually behind that?"),
    ("uhd_usrp_probe", "uhd_usrp_probe throws errors on my setup. What are the usual culprits seen on the list?"),
    ("tx_waveforms", "What problems do people typically report when running the tx_waveforms example, and how are they fixed?"),
    ("10 GbE and SFP+", "Getting a 10 gig SFP+ link up between the host and the radio: what are the frequent problems and their solutions?"),
    ("DRAM and DMA FIFO", "Anything I should know about the DRAM / DMA FIFO? What issues have others had with it and how were they solved?"),
    ("loopback", "When doing a loopback test with TX cabled back to RX, what kinds of surprises do people run into?"),
    ("two channels", "Using both channels of one radio at the same time: what tends to go wrong and how is it usually handled?"),
    ("kernel and NIC drivers", "Could the Linux kernel or my network card's driver be the problem? Which driver issues come up most and what fixed them?"),
    ("device arguments", "What mistakes do people commonly make in the device arguments string (addr=, type=, master_clock_rate= and so on)?"),
    ("LO offset and tune requests", "Tuning with an LO offset or a custom tune request: what typically goes wrong and what's the usual advice?"),
    ("recv call", "Why does recv() so often hand back fewer samples than asked for, or otherwise behave oddly, and how do people deal with it?"),
    ("serial console and JTAG", "When someone needs the serial console or JTAG to get into a USRP, what problems do they hit and how do they work around them?"),
    ("sample scaling", "The amplitude of my received samples isn't what I expect. What do people usually find out about scaling and full-scale values?"),
    ("analog bandwidth", "Setting the analog RX or TX bandwidth doesn't seem to take effect. What are the common reasons?"),
)  # fmt: skip


def questions() -> list[dict[str, object]]:
    """Every question, in the order written."""
    return [
        {"kind": "pattern", "question": q, "source": "usrp", "area": area, "min_groups": 2}
        for area, q in QUESTIONS
    ]


def _own_text(body: str) -> str:
    """What the sender wrote: quoted lines and everything after an attribution or footer left out."""
    out = []
    for line in body.splitlines():
        if re.match(r"^On .* wrote:\s*$", line) or line.startswith("_____"):
            break
        if not line.lstrip().startswith(">"):
            out.append(line)
    return "\n".join(out)


def threads(paths: Iterable[Path]) -> dict[str, list[str]]:
    """Thread root -> the subjects and own texts of its messages (the root: the first id of
    References, else In-Reply-To, else the message's own id), announcements left out."""
    found: dict[str, list[str]] = {}
    for path in sorted(paths):
        with path.open("rb") as f:
            mail = email.message_from_binary_file(f, policy=email.policy.default)
        refs = str(mail.get("References") or "").split()
        root = (
            refs[0]
            if refs
            else str(mail.get("In-Reply-To") or mail.get("Message-ID") or path).strip()
        )
        part = mail.get_body(preferencelist=("plain", "html"))
        body = part.get_content() if part is not None else ""
        found.setdefault(root, []).extend([str(mail.get("Subject") or ""), _own_text(body)])
    return {
        root: texts
        for root, texts in found.items()
        if not any(re.search(r"announc|release candidate", t, re.I) for t in texts[0::2])
    }


def count(folder: Path, areas: Mapping[str, tuple[str, object]] = AREAS) -> dict[str, int]:
    """Area -> how many threads of the mails in ``folder`` name it (``areas``: area -> (the
    words that name it, anything))."""
    by_thread = threads(folder.glob("*.eml"))
    out = {}
    for area, (words, _) in areas.items():
        rx = re.compile(words, re.IGNORECASE)
        out[area] = sum(any(rx.search(t) for t in texts) for texts in by_thread.values())
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="verify the files, write nothing")
    parser.add_argument("--count", type=Path, metavar="FOLDER", help="count threads per area")
    args = parser.parse_args(argv)
    if args.count:
        for area, n in count(args.count).items():
            print(f"{area:32} {n:4d}")  # noqa: T201
        return 0
    return write_halves("pattern_threads3", questions(), SPLIT_SEED, args.check)


if __name__ == "__main__":
    raise SystemExit(main())
