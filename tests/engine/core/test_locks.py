"""waiting_lock: takes a free lock silently, says once that it waits for a held one, then holds it."""

import threading
import time

from filelock import FileLock

from coursekit.core.locks import waiting_lock


def test_a_free_lock_is_taken_without_a_word(tmp_path):
    said: list[str] = []
    with waiting_lock(tmp_path / "x.lock", "another render", said.append):
        inside = True
    assert inside and said == []


def test_a_held_lock_is_waited_for_and_said_once(tmp_path):
    path = tmp_path / "x.lock"
    held = FileLock(str(path))
    held.acquire()
    said: list[str] = []
    got = threading.Event()

    def other():
        with waiting_lock(path, "another render of unit_circle", said.append):
            got.set()

    t = threading.Thread(target=other)
    t.start()
    deadline = time.monotonic() + 5
    while not said and time.monotonic() < deadline:
        time.sleep(0.01)
    assert said == ["waiting for another render of unit_circle to finish …"]
    assert not got.is_set()  # still waiting while the lock is held
    held.release()
    t.join(5)
    assert got.is_set() and said == ["waiting for another render of unit_circle to finish …"]
