#!/usr/bin/env python3
"""A PENK client in Python: drives libpenk.so (ctypes) and `penk engine`
(subprocess, docs/PROTOCOL.md) with the same small API.

    lib = PenkLibrary("build/libpenk.so")
    print(lib.hint("ooooo/o.ooo/oo.oo/ooo.o/oooo.", "12345J", rerolls=1, table="small.penktable"))

    with PenkEngine("build/penk") as engine:
        print(engine.request("hello"))

Run as a script:
    penk_client.py --penk build/penk --lib build/libpenk.so            # a short demo game
    penk_client.py --penk build/penk --lib build/libpenk.so --selftest --workdir DIR
The self-test (run by ctest as `python_client`) builds a small table (positions
with at most 6 free cells, a few seconds) in DIR and checks that the library,
the engine process and `penk hint --json` / `penk value` agree, that a game
played through both is the same game, and that errors come back as errors.
"""
import argparse
import ctypes
import json
import os
import shutil
import subprocess
import sys

PENK_OK = 0
PENK_E_BUFFER_TOO_SMALL = 11
PENK_ACTION_SIZE = 24
STATUS_NAMES = {1: "bad_json", 2: "unknown_command", 3: "bad_field", 4: "bad_position",
                5: "unknown_game", 6: "illegal_action", 7: "unknown_level", 8: "table_error",
                9: "limit", 10: "internal", 11: "buffer_too_small"}


class PenkError(Exception):
    """An error reply of the engine or a failing status of the library."""

    def __init__(self, code, message):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class RankedAction(ctypes.Structure):
    _fields_ = [("action", ctypes.c_char * PENK_ACTION_SIZE), ("value", ctypes.c_double)]


def _s(text):
    return None if text is None else text.encode()


class PenkLibrary:
    """libpenk.so through ctypes (capi/penk.h)."""

    def __init__(self, path, table_dir=None, build=True):
        self.lib = lib = ctypes.CDLL(path)
        c_char_p, c_int, c_size_t, c_void_p = ctypes.c_char_p, ctypes.c_int, ctypes.c_size_t, ctypes.c_void_p
        size_p = ctypes.POINTER(c_size_t)
        lib.penk_version.restype = c_char_p
        lib.penk_api_version.restype = c_int
        lib.penk_level_count.restype = c_int
        lib.penk_level_name.restype = c_char_p
        lib.penk_level_name.argtypes = [c_int]
        lib.penk_status_name.restype = c_char_p
        lib.penk_status_name.argtypes = [c_int]
        lib.penk_last_error.restype = c_char_p
        lib.penk_context_create.argtypes = [c_char_p, ctypes.POINTER(c_void_p)]
        lib.penk_context_destroy.argtypes = [c_void_p]
        lib.penk_context_destroy.restype = None
        lib.penk_context_set_build.argtypes = [c_void_p, c_int]
        lib.penk_value.argtypes = [c_void_p, c_char_p, c_char_p, c_char_p, ctypes.POINTER(ctypes.c_double)]
        lib.penk_hint.argtypes = [c_void_p, c_char_p, c_char_p, c_int, c_char_p, c_char_p,
                                  ctypes.POINTER(RankedAction), c_size_t, size_p]
        lib.penk_hint_json.argtypes = [c_void_p, c_char_p, c_char_p, c_int, c_char_p, c_char_p,
                                       c_char_p, c_size_t, size_p]
        lib.penk_game_create.argtypes = [c_void_p, c_char_p, c_char_p, ctypes.c_uint64,
                                         ctypes.POINTER(c_void_p)]
        lib.penk_game_destroy.argtypes = [c_void_p]
        lib.penk_game_destroy.restype = None
        lib.penk_game_apply.argtypes = [c_void_p, c_char_p]
        lib.penk_game_best_action.argtypes = [c_void_p, c_char_p, c_int, c_char_p, c_size_t]
        lib.penk_game_state_json.argtypes = [c_void_p, c_char_p, c_size_t, size_p]
        lib.penk_game_create_json.argtypes = [c_void_p, c_char_p, ctypes.POINTER(c_void_p)]
        lib.penk_game_roll.argtypes = [c_void_p, c_char_p]
        lib.penk_game_undo.argtypes = [c_void_p]
        lib.penk_game_hint_json.argtypes = [c_void_p, c_char_p, c_int, c_char_p, c_size_t, size_p]
        lib.penk_game_best_action_json.argtypes = [c_void_p, c_char_p, c_int, c_char_p, c_size_t, size_p]
        lib.penk_request.argtypes = [c_void_p, c_char_p, c_char_p, c_size_t, size_p]
        for name in ("players", "current", "phase", "rerolls_left"):
            getattr(lib, "penk_game_" + name).argtypes = [c_void_p]
        lib.penk_game_score.argtypes = [c_void_p, c_int]
        self.ctx = c_void_p()
        self._check(lib.penk_context_create(_s(table_dir), ctypes.byref(self.ctx)))
        if not build:
            self._check(lib.penk_context_set_build(self.ctx, 0))

    def close(self):
        if self.ctx:
            self.lib.penk_context_destroy(self.ctx)
            self.ctx = ctypes.c_void_p()

    def _check(self, status):
        if status != PENK_OK:
            raise PenkError(self.lib.penk_status_name(status).decode(),
                            self.lib.penk_last_error().decode(errors="replace"))

    def _text(self, call):
        """Calls call(buf, size, needed_p) twice: once for the size, once for the text."""
        needed = ctypes.c_size_t(0)
        status = call(None, 0, ctypes.byref(needed))
        if status != PENK_E_BUFFER_TOO_SMALL:
            self._check(status)
        buf = ctypes.create_string_buffer(needed.value + 1)
        self._check(call(buf, len(buf), ctypes.byref(needed)))
        return buf.value.decode()

    def version(self):
        return self.lib.penk_version().decode()

    def levels(self):
        return [self.lib.penk_level_name(i).decode() for i in range(self.lib.penk_level_count())]

    def value(self, sheet=None, rules=None, table=None):
        v = ctypes.c_double()
        self._check(self.lib.penk_value(self.ctx, _s(sheet), _s(rules), _s(table), ctypes.byref(v)))
        return v.value

    def hint(self, sheet, roll, rerolls=2, rules=None, table=None):
        """[(action, value)] best first, values in full precision."""
        count = ctypes.c_size_t(0)
        args = (self.ctx, _s(sheet), _s(roll), rerolls, _s(rules), _s(table))
        self._check(self.lib.penk_hint(*args, None, 0, ctypes.byref(count)))
        actions = (RankedAction * count.value)()
        self._check(self.lib.penk_hint(*args, actions, count.value, ctypes.byref(count)))
        return [(a.action.decode(), a.value) for a in actions]

    def hint_json(self, sheet, roll, rerolls=2, rules=None, table=None):
        args = (self.ctx, _s(sheet), _s(roll), rerolls, _s(rules), _s(table))
        return json.loads(self._text(lambda b, n, p: self.lib.penk_hint_json(*args, b, n, p)))

    def new_game(self, players, rules=None, seed=0):
        return LibraryGame(self, players, rules, seed)

    def new_game_with(self, **options):
        """A game with everything new_game takes: players, rules, seed, dice, position (or record)."""
        return LibraryGame(self, options=options)

    def new_game_from_record(self, record):
        """The game of a record (`export`, `penk play --save`), restored with its undo."""
        return LibraryGame(self, options={"record": record})

    def request(self, line):
        """One protocol request through the C door; the reply object."""
        return json.loads(self._text(lambda b, n, p: self.lib.penk_request(self.ctx, _s(line), b, n, p)))


class LibraryGame:
    def __init__(self, library, players=None, rules=None, seed=0, options=None):
        self.library, self.lib = library, library.lib
        self.handle = ctypes.c_void_p()
        if options is not None:
            library._check(self.lib.penk_game_create_json(library.ctx, _s(json.dumps(options)),
                                                          ctypes.byref(self.handle)))
        else:
            library._check(self.lib.penk_game_create(library.ctx, _s(",".join(players)), _s(rules), seed,
                                                     ctypes.byref(self.handle)))

    def close(self):
        if self.handle:
            self.lib.penk_game_destroy(self.handle)
            self.handle = ctypes.c_void_p()

    def apply(self, action):
        self.library._check(self.lib.penk_game_apply(self.handle, _s(action)))

    def best_action(self, level=None, apply=False):
        buf = ctypes.create_string_buffer(PENK_ACTION_SIZE)
        self.library._check(self.lib.penk_game_best_action(self.handle, _s(level), int(apply), buf, len(buf)))
        return buf.value.decode()

    def best_action_json(self, level=None, apply=False):
        # One call with room to spare: a second call would ask the AI again,
        # and a random level may then decide otherwise.
        buf = ctypes.create_string_buffer(1 << 16)
        self.library._check(self.lib.penk_game_best_action_json(
            self.handle, _s(level), int(apply), buf, len(buf), None))
        return json.loads(buf.value.decode())

    def roll(self, dice):
        self.library._check(self.lib.penk_game_roll(self.handle, _s(dice)))

    def undo(self):
        self.library._check(self.lib.penk_game_undo(self.handle))

    def hint(self, table=None, top=0):
        return json.loads(self.library._text(
            lambda b, n, p: self.lib.penk_game_hint_json(self.handle, _s(table), top, b, n, p)))

    def state(self):
        return json.loads(self.library._text(
            lambda b, n, p: self.lib.penk_game_state_json(self.handle, b, n, p)))

    def phase(self):
        return ["keep", "mark", "over", "roll"][self.lib.penk_game_phase(self.handle)]


class PenkEngine:
    """`penk engine` as a subprocess: one JSON request per line, one reply per line."""

    def __init__(self, penk, table_dir=None, build=True):
        cmd = [penk, "engine"]
        if table_dir:
            cmd += ["--table-dir", table_dir]
        if not build:
            cmd.append("--no-build")
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.next_id = 0

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def send_line(self, line):
        """Sends a raw line; returns the parsed reply object (protocol 2)."""
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        return self.next_line()

    def next_line(self):
        """The next line the engine writes: a reply, or (protocol 3) a progress message."""
        reply = self.proc.stdout.readline()
        if not reply:
            raise RuntimeError("penk engine ended")
        return json.loads(reply)

    def request(self, cmd, **fields):
        """Sends a request and waits for its reply (replies to other requests
        in flight are kept for wait_for)."""
        return self.wait_for(self.submit(cmd, **fields))

    # Protocol 3 (docs/PROTOCOL.md "Requests in flight"): several requests
    # in flight, replies by id in completion order, progress, cancel.
    def use_protocol3(self):
        self.replies = getattr(self, "replies", {})
        return self.request("hello", protocol=3)

    def submit(self, cmd, **fields):
        """Sends a request without waiting; returns its id."""
        self.next_id += 1
        self.proc.stdin.write(json.dumps({"id": self.next_id, "cmd": cmd, **fields}) + "\n")
        self.proc.stdin.flush()
        return self.next_id

    def wait_for(self, request_id, on_progress=None):
        """Reads lines until the reply to `request_id`; progress messages go
        to on_progress(progress), other replies are kept. Returns the result
        or raises PenkError."""
        replies = self.replies = getattr(self, "replies", {})
        while request_id not in replies:
            line = self.next_line()
            if "progress" in line:
                if on_progress and line["id"] == request_id:
                    on_progress(line["progress"])
                continue
            replies[line["id"]] = line
        reply = replies.pop(request_id)
        if "error" in reply:
            raise PenkError(reply["error"]["code"], reply["error"]["message"])
        return reply["result"]

    def cancel(self, request_id):
        """Stops a request in flight; True if it was running (it then
        answers `cancelled`)."""
        return self.request("cancel", target=request_id)["running"]

    def export(self, game):
        """The whole game as a record (docs/PROTOCOL.md), for new_game's "record"."""
        return self.request("export", game=game)["record"]

    def close(self):
        if self.proc.poll() is None:
            try:
                self.request("quit")
            except (RuntimeError, BrokenPipeError):
                pass
            self.proc.stdin.close()
            self.proc.wait(timeout=30)


# ---------------------------------------------------------------------------

SMALL_SHEET = "ooooo/o.ooo/oo.oo/ooo.o/oooo."  # 4 free cells: the small table covers it


def expect_error(code, fn, *args, **kwargs):
    try:
        fn(*args, **kwargs)
    except PenkError as e:
        assert e.code == code, f"expected {code}, got {e.code}: {e.message}"
        return
    raise AssertionError(f"expected error {code}")


def selftest(penk, libpath, workdir):
    os.makedirs(workdir, exist_ok=True)
    table = os.path.join(workdir, "small_free6.penktable")
    # Built afresh each run (~2 s): a table left by an older build may be in
    # an older format, which the engine rightly refuses.
    subprocess.run([penk, "tables", "build", "--max-free", "6", "--out", table], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    lib = PenkLibrary(libpath, table_dir=workdir, build=False)
    checks = 0
    with PenkEngine(penk, table_dir=workdir, build=False) as engine:
        hello = engine.request("hello")
        assert hello["name"] == "penk" and hello["version"] == lib.version(), hello
        assert hello["levels"] == lib.levels(), (hello["levels"], lib.levels())
        checks += 1

        # Hints and values: library (JSON and arrays), engine and CLI agree.
        for roll in ("12345J", "3335JJ", "111111"):
            for rerolls in (2, 1, 0):
                cli = json.loads(subprocess.run(
                    [penk, "hint", "--json", "--sheet", SMALL_SHEET, "--roll", roll,
                     "--rerolls", str(rerolls), "--table", table],
                    check=True, capture_output=True, text=True).stdout)
                # Each action's sd (issue 13), the same through every door.
                assert all(a["sd"] >= 0 for a in cli["actions"]), cli
                via_engine = engine.request("hint", sheet=SMALL_SHEET, roll=roll, rerolls=rerolls, table=table)
                via_json = lib.hint_json(SMALL_SHEET, roll, rerolls, table=table)
                via_arrays = lib.hint(SMALL_SHEET, roll, rerolls, table=table)
                assert via_engine["actions"] == cli["actions"], (via_engine, cli)
                assert via_json == cli, (via_json, cli)
                assert [a for a, _ in via_arrays] == [a["action"] for a in cli["actions"]]
                assert all(abs(v - a["value"]) < 5e-7 for (_, v), a in zip(via_arrays, cli["actions"]))
                checks += 1
        out = subprocess.run([penk, "value", "--sheet", SMALL_SHEET, "--table", table],
                             check=True, capture_output=True, text=True).stdout
        cli_value = float(out.split("value:")[1])
        assert engine.request("value", sheet=SMALL_SHEET, table=table)["value"] == cli_value
        # Without "table": the default file name in the table dir; the small table
        # is not there, and building is off on both sides.
        expect_error("table_error", engine.request, "value", sheet=SMALL_SHEET)
        expect_error("table_error", lib.value, SMALL_SHEET)
        assert abs(lib.value(SMALL_SHEET, table=table) - cli_value) < 5e-7
        checks += 1

        # One game through both, the same seed and the same decisions.
        seed = 2024
        state = engine.request("new_game", players=["human", "greedy"], seed=seed)
        game_id = state.pop("game")
        game = lib.new_game(["human", "greedy"], seed=seed)
        assert game.state() == state, (game.state(), state)
        moves = 0
        while state["phase"] != "over":
            moves += 1
            assert moves < 3000
            if state["current"] == 0:   # the human: the random AI's suggestion
                action = engine.request("best_action", game=game_id, level="random")["action"]
                state = engine.request("apply", game=game_id, action=action)
                game.apply(action)
            else:                       # the greedy seat plays itself
                reply = engine.request("best_action", game=game_id, apply=True)
                state = reply["state"]
                assert game.best_action(apply=True) == reply["action"]
            state.pop("game")
            assert game.state() == state, (game.state(), state)
        assert state["winners"], state
        checks += 1

        # Physical dice, the same through both doors; undo; hint by game.
        import random
        rng = random.Random(7)
        state = engine.request("new_game", players=["human", "greedy"], seed=1, dice="manual")
        manual_id = state.pop("game")
        manual = lib.new_game_with(players=["human", "greedy"], seed=1, dice="manual")
        assert manual.state() == state, (manual.state(), state)
        steps = 0
        while state["phase"] != "over":
            steps += 1
            assert steps < 3000
            if state["phase"] == "roll":
                kept = "" if state["kept"] == "-" else state["kept"]
                dice = kept + "".join(rng.choice("12345J") for _ in range(6 - len(kept)))
                state = engine.request("roll", game=manual_id, dice=dice)
                manual.roll(dice)
            else:
                level = "random" if state["current"] == 0 else None
                reply = engine.request("best_action", game=manual_id, level=level, apply=True) if level \
                    else engine.request("best_action", game=manual_id, apply=True)
                state = reply["state"]
                assert manual.best_action_json(level=level, apply=True)["action"] == reply["action"]
            state.pop("game")
            assert manual.state() == state, (manual.state(), state)
        for _ in range(3):
            state = engine.request("undo", game=manual_id)
            manual.undo()
        state.pop("game")
        assert manual.state() == state and state["phase"] != "over", state
        # The game as a record, from the engine into the library: the same
        # game, whose undo takes back the same steps.
        record = engine.export(manual_id)
        assert record["format"] == "penk-game" and record["dice"] == "manual", record
        restored = lib.new_game_from_record(record)
        assert restored.state() == state, (restored.state(), state)
        state = engine.request("undo", game=manual_id)
        state.pop("game")
        restored.undo()
        assert restored.state() == state, (restored.state(), state)
        restored.close()
        manual.close()
        checks += 1

        # Strict requests: a misspelt field is refused by name, in both doors.
        try:
            engine.request("hint", roll="3335JJ", rerolls_left=0)
            raise AssertionError("rerolls_left accepted")
        except PenkError as e:
            assert e.code == "bad_field" and '"rerolls_left"' in e.message, e.message
        reply = lib.request(json.dumps({"id": "x", "cmd": "value", "rule": "line-min=1"}))
        assert reply["id"] == "x" and reply["error"]["code"] == "bad_field", reply
        checks += 1

        # Errors: the engine keeps serving, the library keeps working.
        assert engine.send_line("this is not json")["error"]["code"] == "bad_json"
        expect_error("unknown_command", engine.request, "dance")
        expect_error("bad_field", engine.request, "hint", sheet=SMALL_SHEET)
        expect_error("bad_position", engine.request, "hint", sheet="o", roll="12345J", table=table)
        expect_error("unknown_game", engine.request, "state", game=999)
        expect_error("illegal_action", engine.request, "apply", game=game_id, action="stop")
        expect_error("unknown_level", engine.request, "new_game", players=["human", "wizard"])
        expect_error("bad_position", lib.hint, "o", "12345J", table=table)
        expect_error("bad_field", lib.hint, SMALL_SHEET, "12345J", rerolls=5, table=table)
        expect_error("illegal_action", game.apply, "stop")
        expect_error("unknown_level", lib.new_game, ["wizard"])
        expect_error("table_error", lib.hint, None, "12345J", table=table)
        assert engine.request("state", game=game_id)["phase"] == "over"
        checks += 1

        # Protocol 3: requests in flight, answered by id; a cancel of what
        # has already answered is not an error.
        assert engine.use_protocol3()["protocol"] == 3
        first = engine.submit("value", sheet=SMALL_SHEET, table=table)
        second = engine.submit("hint", sheet=SMALL_SHEET, roll="12345J", table=table, top=1)
        assert engine.wait_for(second)["count"] >= 1
        assert engine.wait_for(first)["value"] > 0
        assert engine.cancel(first) is False
        expect_error("bad_field", engine.request, "prepare", blocked="9")
        checks += 1
        game.close()
    # Progress: a table built by prepare in a folder of its own (the table of
    # rows 1-4 blocked: about two seconds) reports its positions.
    with PenkEngine(penk, table_dir=os.path.join(workdir, "prepared")) as engine:
        engine.use_protocol3()
        seen = []
        done = engine.wait_for(engine.submit("prepare", blocked="1234", progress_ms=100), seen.append)
        assert done["tables"] == [{"blocked": "1234", "loaded": True}], done
        assert any(p["what"].startswith("building table") and 0 < p["done"] <= p["total"] for p in seen), seen
        checks += 1
    shutil.rmtree(os.path.join(workdir, "prepared"), ignore_errors=True)
    lib.close()
    print(f"penk_client self-test: {checks} checks passed")


def demo(penk, libpath):
    lib = PenkLibrary(libpath)
    print("libpenk", lib.version(), "AI levels:", ", ".join(lib.levels()))
    with PenkEngine(penk) as engine:
        state = engine.request("new_game", players=["greedy", "random"], seed=1)
        while state["phase"] != "over":
            reply = engine.request("best_action", game=state["game"], apply=True)
            state = reply["state"]
        scores = [p["score"] for p in state["players"]]
        print("greedy vs random:", scores, "winners:", state["winners"])
    lib.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--penk", default=os.environ.get("PENK_BINARY", "build/penk"))
    ap.add_argument("--lib", default=os.environ.get("PENK_LIBRARY", "build/libpenk.so"))
    ap.add_argument("--selftest", action="store_true")
    ap.add_argument("--workdir", default="penk_client_work")
    args = ap.parse_args()
    if args.selftest:
        selftest(args.penk, args.lib, args.workdir)
    else:
        demo(args.penk, args.lib)
    return 0


if __name__ == "__main__":
    sys.exit(main())
