"""Pattern questions over the list asked in people's own words: recognised, with the asking
words left out of the topic."""

from __future__ import annotations

import pytest

from answers.thread_asks import topic_words
from answers.thread_patterns import thread_pattern_plan


@pytest.mark.parametrize(
    ("question", "about", "topic"),
    [
        # problems asked in the plural, then how they are solved: fixes are grouped
        (
            "Which issues do users run into with the E320, and how do they get around them?",
            "fix",
            "E320",
        ),
        (
            "What goes wrong most often when people flash an N300, and what do they do about it?",
            "fix",
            "flash N300",
        ),
        # a problem the list talks about, without "cause" or "fix": its causes are grouped
        ("What are the typical pitfalls of streaming over 10 GbE?", "cause", "streaming 10 GbE"),
        (
            "Going by the list, why do B205mini boards keep failing?",
            "cause",
            "B205mini boards",
        ),
        (
            "What usually makes the OctoClock lose lock on a cold start?",
            "cause",
            "OctoClock lose lock cold start",
        ),
        # fixing by another verb; an aside in brackets and a negated verb name nothing
        ("How do people usually recover an X310 (rev B) that won't boot?", "fix", "X310 boot"),
        ("What commonly clears timeouts on the TwinRX?", "fix", "timeouts TwinRX"),
        # how often said after the verb ("come up most"), or as a tendency ("tends to")
        (
            "Which problems with the DRAM FIFO come up most in custom images?",
            "cause",
            "DRAM FIFO custom images",
        ),
        (
            "What tends to go wrong with a B200mini on a Raspberry Pi?",
            "cause",
            "B200mini Raspberry Pi",
        ),
        # a problem told as a verb: tripping people up, or a negated verb
        ("What trips people up most when they build an FPGA image?", "cause", "build FPGA image"),
        ("What is usually behind it when a TwinRX doesn't tune?", "cause", "TwinRX tune"),
        ("What do people usually find when the OctoClock won't lock?", "cause", "OctoClock lock"),
        # an acronym's plural is the list's singular
        ("Why do FPGAs in X310s usually fail timing?", "cause", "FPGA X310 timing"),
        # how often as "normally" or "ordinarily", the list as its past threads
        ("What is normally wrong when an E310 won't boot from SD?", "cause", "E310 boot SD"),
        (
            "Judging by earlier threads, what is the cause when the GPSDO loses lock?",
            "cause",
            "Judging GPSDO loses lock",
        ),
        # problems named by plural nouns or by a verb of breaking
        ("Which errors do users see with the RFNoC replay block?", "cause", "RFNoC replay block"),
        ("What breaks most often in a custom FPGA build?", "cause", "custom FPGA build"),
        ("What recurring headaches come with the N320 LO sharing?", "cause", "N320 LO sharing"),
        # what stops working or acts up, and a fix told by a phrasal verb
        (
            "When my X410 acts up, what do people ordinarily find, and what sorted things out?",
            "fix",
            "X410",
        ),
        (
            "After a kernel update what typically stops working, and how do users get it going "
            "again?",
            "fix",
            "kernel update",
        ),
        ("How are overflows at high rates usually handled?", "fix", "overflows high rates"),
        (
            "What snags do people report when flashing an SD card, and what helped?",
            "fix",
            "flashing SD card",
        ),
    ],
)
def test_a_question_about_the_list_in_its_own_words_is_a_thread_pattern(
    question: str, about: str, topic: str
) -> None:
    plan = thread_pattern_plan(question)
    assert plan is not None, question
    assert (plan.about, plan.topic) == (about, topic)


@pytest.mark.parametrize(
    "question",
    [
        "How was the overflow on my X310 fixed?",  # one thread, no cue
        "What are the most common fixes?",  # names no problem
        "Why did my B210 stop streaming yesterday?",  # one user's problem
        "What usually happens on the list?",  # asks no fix, cause or problem
        "What is the most recent UHD release people use?",  # "most" before a quality
        "Which radios do people buy most on the list?",  # how often, but no problem asked
        "What sorted out the overflow on my X310?",  # a fix, but of one thread
        "Which UHD release stopped working on my B210 last week?",  # one user's problem
        "What is normally the default IP address of an N210?",  # a cue, but nothing asked
        "Do people usually report their UHD version when they ask?",  # reporting is no problem
        "What advice did Marcus give about the B210 clock?",  # one reply's advice
        # one conversation named: what its people found, not what the list usually finds
        "What did people on that thread find wrong with the N310 clocking?",
        "Which errors did users in my post usually hit with the X410?",
    ],
)
def test_a_question_about_one_thread_or_nothing_is_not(question: str) -> None:
    assert thread_pattern_plan(question) is None


def test_the_names_of_a_problem_keep_their_negation_and_spelling() -> None:
    assert topic_words("What usually causes no devices found errors?") == "no devices found errors"
    assert topic_words("Why do GPSDOs in USRPs often fail?") == "GPSDO USRP"
    assert topic_words("Why do Ettus devices often fail?") == "Ettus devices"
    # errors asked for are no name; errors of a kind are
    assert topic_words("What usually causes sequence errors?") == "sequence errors"
    assert topic_words("Which errors do people get from RFNoC?") == "RFNoC"


@pytest.mark.parametrize(
    ("question", "about", "topic"),
    [
        # what is known or comes back, said by a cue of its own
        ("What are the known problems with the B205mini?", "cause", "B205mini"),
        ("Which problems show up again and again with RFNoC?", "cause", "RFNoC"),
        ("Which issues come up repeatedly with GNU Radio and UHD?", "cause", "GNU Radio UHD"),
        ("What are the top causes of sequence errors on X310?", "cause", "sequence errors X310"),
        (
            "What are the classic mistakes when setting up a 10 GbE link?",
            "cause",
            "setting 10 GbE link",
        ),
        ("What's the standard fix for the DC offset spike?", "fix", "DC offset spike"),
        ("What's the go-to fix when the X310 won't show up over PCIe?", "fix", "X310 PCIe"),
        ("Which UHD versions cause the most trouble and why?", "cause", "UHD versions"),
        # the list's people called otherwise, the list named by a preposition
        ("What do folks typically run into with DPDK?", "cause", "DPDK"),
        ("What have others seen go wrong with the TwinRX?", "cause", "TwinRX"),
        (
            "Across the list, what causes LO leakage and how do people get rid of it?",
            "cause",
            "LO leakage",
        ),
        # a cause as a culprit, a suspect, a source or what explains it
        ("What's the usual culprit when the X300 drops samples?", "cause", "X300 drops samples"),
        (
            "What are the usual suspects when the USRP won't lock to an external 10 MHz reference?",
            "cause",
            "USRP lock external 10 MHz reference",
        ),
        ("What are the main sources of overflow errors?", "cause", "overflow errors"),
        (
            "What typically explains a spur at the center frequency?",
            "cause",
            "spur center frequency",
        ),
        ("Typical failure modes of the OctoClock?", "cause", "OctoClock"),
        ("Are there recurring themes in the DPDK threads?", "cause", "DPDK"),
        # a fix as what resolves, is dealt with, recommended or done when it happens
        ("How is a timeout on recv generally dealt with?", "fix", "timeout recv"),
        ("What usually resolves a PCIe link that drops?", "fix", "PCIe link drops"),
        (
            "What do people generally recommend when streaming at high rates drops samples?",
            "fix",
            "streaming high rates drops samples",
        ),
        (
            "What are typical troubleshooting steps for the N210 not being detected?",
            "fix",
            "N210 not detected",
        ),
        (
            "What do most people do when uhd_usrp_probe can't find the device?",
            "fix",
            "uhd_usrp_probe device",
        ),
        ("How do people most commonly work around LO leakage?", "fix", "LO leakage"),
        # the words of a request name nothing
        ("Summarize the common complaints about the E320.", "cause", "E320"),
        ("Tell me the usual causes of timeouts with the N320.", "cause", "timeouts N320"),
        (
            "Has anyone figured out the usual reasons behind RX streaming timeouts on the B210?",
            "cause",
            "RX streaming timeouts B210",
        ),
    ],
)
def test_a_pattern_asked_with_other_cues_and_asking_words(
    question: str, about: str, topic: str
) -> None:
    plan = thread_pattern_plan(question)
    assert plan is not None, question
    assert (plan.about, plan.topic) == (about, topic)


@pytest.mark.parametrize(
    "question",
    [
        "What is the main cause of the overflow in my X310 thread?",  # one thread named
        "What is the standard IP address of an N210?",  # a cue, but nothing asked
        "Which is the top FPGA image people use?",  # how often, no problem
        "My X310 keeps dropping samples; how was that fixed?",  # one user's problem
    ],
)
def test_the_new_cues_do_not_make_one_thread_or_a_fact_a_pattern(question: str) -> None:
    assert thread_pattern_plan(question) is None


@pytest.mark.parametrize(
    ("question", "about", "topic"),
    [
        # a tendency to fail asked of a setup ("is it flaky"), then what breaks
        ("Is the E320 flaky over 1 GbE, and what breaks?", "cause", "E320 GbE"),
        (
            "Streaming from an N310 with DPDK: is it unreliable, and what fails?",
            "cause",
            "Streaming N310 DPDK",
        ),
        # a program that crashes, hangs or freezes; hardware that was damaged
        (
            "What usually makes GNU Radio flowgraphs with a B210 crash or hang?",
            "cause",
            "GNU Radio flowgraphs B210 crash hang",
        ),
        (
            "What happened to people who damaged their TwinRX with too much input power?",
            "cause",
            "TwinRX much input power",
        ),
        # a tendency told otherwise: reliability, temperament, being prone to a problem
        ("How reliable is the OctoClock-G, and what fails?", "cause", "OctoClock-G"),
        (
            "Is the B205mini temperamental at high sample rates? What breaks?",
            "cause",
            "B205mini high sample rates",
        ),
        ("Is the X310 prone to overheating, and what do people see?", "cause", "X310 overheating"),
        # what is blamed, the commonest cause
        (
            "What do folks typically blame when the B210 disconnects from USB 3?",
            "cause",
            "B210 disconnects USB",
        ),
        (
            "What is the commonest cause of an X310 not being found over 10GbE?",
            "cause",
            "X310 not found 10GbE",
        ),
        # one problem named as the usual one, a complaint or experiences asked about
        ("What is the most common problem with the B210?", "cause", "B210"),
        (
            "What's the most frequent complaint about the B210's USB 3 link?",
            "cause",
            "B210 USB link",
        ),
        ("What are people's experiences with the X410 at 500 Msps?", "cause", "X410 500 Msps"),
        # what keeps coming up
        ("Which problems keep coming up with the UBX daughterboard?", "cause", "UBX daughterboard"),
        # what people trace it to, what is going on; where they get stuck, what gives grief
        (
            "Clock drift between two X310s sharing a 10 MHz ref: what have people traced it to?",
            "cause",
            "Clock drift two X310 sharing 10 MHz ref",
        ),
        (
            "My TX output has spurs. What's usually going on according to the list?",
            "cause",
            "TX output spurs",
        ),
        (
            "Writing a custom RFNoC block in Verilog: where do people most often get stuck?",
            "cause",
            "Writing custom RFNoC block Verilog",
        ),
        (
            "Which Ethernet adapters give people grief with the N310?",
            "cause",
            "Ethernet adapters N310",
        ),
        # a fix as getting past or out of it, or a rescue
        (
            "Flashing the FX3 firmware on a B200: what goes sideways for people and what "
            "rescues it?",
            "fix",
            "Flashing FX3 firmware B200",
        ),
        (
            "Anyone else see the X410 getting really hot? What did people do about it?",
            "fix",
            "X410 really hot",
        ),
        # a release number is one word of the topic
        (
            "Which UHD builds segfault most often on Ubuntu 22.04?",
            "cause",
            "UHD builds segfault Ubuntu 22.04",
        ),
    ],
)
def test_a_pattern_of_flaky_setups_and_crashing_programs(
    question: str, about: str, topic: str
) -> None:
    plan = thread_pattern_plan(question)
    assert plan is not None, question
    assert (plan.about, plan.topic) == (about, topic)


@pytest.mark.parametrize(
    "question",
    [
        "Is the B210 flaky?",  # a tendency, but nothing asked
        "Why did my program crash yesterday?",  # one user's crash
        "My X310 hangs at boot; how was that fixed?",  # one user's problem
        "Is the N210 reliable?",  # a tendency, but no problem asked
        "Who is to blame for my broken B210?",  # one user's problem
        "What was the problem in my last experience with the X310?",  # no cue
        "Explain how the stock market works for beginners.",  # beginners are no cue
        "What's going on with my B210?",  # one user's problem
        "I got stuck on the RFNoC tutorial, how did you get past step 3?",  # no cue
    ],
)
def test_crashes_and_flakiness_of_one_setup_are_no_pattern(question: str) -> None:
    assert thread_pattern_plan(question) is None
