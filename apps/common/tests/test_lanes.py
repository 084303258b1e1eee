import threading
import time

from apps.common.lanes import ThreadLanes, Turns


def test_reads_take_turns_at_their_threads():
    inside, most = 0, 0
    lock = threading.Lock()

    def read(environ, start):
        nonlocal inside, most
        with lock:
            inside += 1
            most = max(most, inside)
        time.sleep(0.02)
        with lock:
            inside -= 1

    lanes = ThreadLanes(read, read, reads=1)
    threads = [threading.Thread(target=lanes, args=({"PATH_INFO": "/api/v1/blocks"}, None)) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert most == 1


def test_a_released_turn_goes_to_the_longest_waiter():
    turns = Turns(1)
    turns.take()
    order = []

    def wait(name):
        turns.take()
        order.append(name)
        turns.give()

    first = threading.Thread(target=wait, args=("first",))
    first.start()
    time.sleep(0.05)
    second = threading.Thread(target=wait, args=("second",))
    second.start()
    time.sleep(0.05)
    turns.give()
    first.join()
    second.join()

    assert order == ["first", "second"]



def test_an_answer_kept_whole_takes_no_turn():
    served = []
    lanes = ThreadLanes(
        lambda environ, start: served.append("side"),
        lambda environ, start: served.append("read"),
        reads=1,
        answer_at_once=lambda environ, start: [b"kept"] if environ["PATH_INFO"] == "/kept" else None,
    )
    lanes._read_turns.take()  # a read holds the only turn

    answer = lanes({"PATH_INFO": "/kept"}, None)

    assert answer == [b"kept"] and served == []
