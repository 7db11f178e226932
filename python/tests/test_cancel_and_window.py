"""Ctrl-C cancels a run; `inspect` and `open_puzzle` never block the caller; the window opens on
the model with the samples (a screenshot under Xvfb, as CI runs it)."""

import os
import pathlib
import signal
import subprocess
import sys
import textwrap
import time

import dimod
import pytest

import qubo_workbench as qw

ROOT = pathlib.Path(__file__).resolve().parents[2]
HAS_DISPLAY = bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


@pytest.mark.parametrize(
    "n, call",
    [
        (500, "qw.SimulatedAnnealingSampler().sample(bqm, num_reads=1000, num_sweeps=1000000)"),
        # Thousands of lane groups: after a cancel, the ones not begun are skipped (each set
        # up its 64 slices and swept once before looking: over two minutes in all).
        (
            2000,
            "qw.SimulatedQuantumAnnealingSampler().sample(bqm, num_reads=100000,"
            " num_sweeps=100000, trotter=64)",
        ),
    ],
)
def test_ctrl_c_cancels_a_run_and_raises_keyboard_interrupt(n, call):
    script = textwrap.dedent(
        f"""
        import sys, dimod, qubo_workbench as qw
        bqm = dimod.generators.ran_r(1, {n}, seed=1)
        print("sampling", flush=True)
        try:
            {call}
        except KeyboardInterrupt:
            print("interrupted", flush=True)
            sys.exit(3)
        """
    )
    p = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "sampling"
    time.sleep(1.0)
    sent = time.perf_counter()
    p.send_signal(signal.SIGINT)
    out, _ = p.communicate(timeout=60)
    stopped_s = time.perf_counter() - sent
    assert p.returncode == 3 and "interrupted" in out
    # The run would take hours; cancelling takes a sweep's worth of time per worker.
    assert stopped_s < 30, stopped_s


def test_inspect_returns_at_once_while_the_window_stays_open():
    bqm = dimod.generators.ran_r(1, 10, seed=1)
    started = time.perf_counter()
    window = qw.inspect(bqm)
    try:
        assert time.perf_counter() - started < 20, "inspect waited for the window"
        if HAS_DISPLAY:
            time.sleep(2)
            assert window.poll() is None, "the window closed by itself"
    finally:
        window.terminate()
        window.wait(timeout=30)


@pytest.mark.skipif(not HAS_DISPLAY, reason="needs a display (CI runs this under xvfb-run)")
def test_inspect_shows_the_model_and_its_samples(tmp_path):
    bqm = dimod.generators.ran_r(1, 30, seed=1)
    bqm.relabel_variables({v: f"q{v}" for v in bqm.variables})
    sampleset = qw.TabuSampler().sample(bqm, num_reads=20, seed=1)
    shot = tmp_path / "window.png"
    window = qw.inspect(bqm, sampleset, screenshot=shot)
    assert window.returncode == 0
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000


@pytest.mark.skipif(not HAS_DISPLAY, reason="needs a display (CI runs this under xvfb-run)")
def test_open_puzzle_opens_a_shipped_puzzle(tmp_path):
    shot = tmp_path / "puzzle.png"
    window = qw.open_puzzle(ROOT / "puzzles" / "sudoku" / "euler96_g1.txt", screenshot=shot)
    assert window.returncode == 0 and shot.stat().st_size > 20_000


def test_open_puzzle_names_a_missing_file():
    with pytest.raises(FileNotFoundError, match="nowhere.txt"):
        qw.open_puzzle("nowhere.txt")


def test_the_command_line_comes_with_the_package():
    out = subprocess.run(
        [sys.executable, "-m", "qubo_workbench", "--version"], capture_output=True, text=True
    )
    assert out.returncode == 0 and qw.version() in out.stdout
