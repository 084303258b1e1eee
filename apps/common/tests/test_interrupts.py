import signal
import subprocess
import sys

from apps.common.tests.production_server import PROJECT_DIR

# Cleans up after a KeyboardInterrupt: waits for a second SIGTERM, and starts a process.
PROGRAM = """
import signal, subprocess, sys, time
from apps.common.interrupts import sigterm_as_interrupt

with sigterm_as_interrupt():
    try:
        print("ready", flush=True)
        time.sleep(60)
    except KeyboardInterrupt:
        print("interrupted", flush=True)
        time.sleep(1)
        child = "import signal; print(signal.getsignal(signal.SIGTERM) == signal.SIG_DFL)"
        subprocess.run([sys.executable, "-c", child])
        print("cleaned up", flush=True)
"""


def test_a_sigterm_interrupts_and_the_cleanup_runs_to_its_end():
    program = subprocess.Popen(
        [sys.executable, "-c", PROGRAM], cwd=PROJECT_DIR, stdout=subprocess.PIPE, text=True
    )
    try:
        assert program.stdout.readline() == "ready\n"
        program.send_signal(signal.SIGTERM)
        assert program.stdout.readline() == "interrupted\n"
        program.send_signal(signal.SIGTERM)
        rest, _ = program.communicate(timeout=30)
    finally:
        program.kill()

    # The process started during the cleanup gets the default: a SIGTERM ends it.
    assert (program.returncode, rest) == (0, "True\ncleaned up\n")


def test_a_sigterm_outside_the_block_ends_the_process_at_once():
    program = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import time; from apps.common.interrupts import sigterm_as_interrupt\n"
            "with sigterm_as_interrupt(): pass\n"
            "print('ready', flush=True); time.sleep(60)",
        ],
        cwd=PROJECT_DIR,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert program.stdout.readline() == "ready\n"
        program.send_signal(signal.SIGTERM)
        program.wait(30)
    finally:
        program.kill()

    assert program.returncode == -signal.SIGTERM
