#!/usr/bin/env python3
"""Writes a todos session of N actions (default 10,000) that the samples' replay host replays as recorded.

The scripted sample app drops actions when it dispatches faster than its recorder writes (a gap, by design), so
this writes a long gap-free session directly: adds, toggles, filters and clear-completed on a list that stays
around 40 todos (or around SIZE todos, starting with that many: 600 make states of about 100 KB), full state
snapshots, as the todos reducer (samples/Features/Todos.swift) computes them.
Usage: scripts/make-todos-session.py OUT.jsonl [N [SIZE]]
"""
import json
import random
import sys
import uuid


def line(value):
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def main():
    if len(sys.argv) < 2 or sys.argv[1].startswith("-"):  # --help, or an option that would name the file written
        asked = sys.argv[1:2] in (["-h"], ["--help"])
        print(__doc__.strip(), file=sys.stdout if asked else sys.stderr)
        sys.exit(0 if asked else 2)
    out, count = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 10_000
    size = int(sys.argv[3]) if len(sys.argv) > 3 else None
    rng = random.Random(1)
    titles = ["Milk", "Eggs", "Water plants", "Fix bike", "Call mum", "Book dentist", "Pay rent", "Read"]
    state = {"filter": "all", "todos": []}
    # With a size, the list starts full and stays near it; without, it grows from empty to at most 60.
    most = 60 if size is None else size + size // 5
    for number in range(size or 0):
        todo_id = str(uuid.UUID(int=rng.getrandbits(128))).upper()
        state["todos"].append({"createdAt": 1794000000 + number * 1.5, "id": todo_id, "isComplete": False,
                               "tags": [], "title": rng.choice(titles)})
    with open(out, "w", encoding="utf-8") as file:
        file.write(line({
            "app": {"build": "1", "name": "SampleApp", "schemaVersion": "1", "version": "1.0"}, "format": 1,
            "host": "generated", "initialState": state, "kind": "session", "metadata": {}, "pid": 1,
            "sessionId": str(uuid.UUID(int=rng.getrandbits(128))).upper(), "startedAt": "2026-11-23T10:00:00.000Z",
            "storeId": "todos"}) + "\n")
        for seq in range(1, count + 1):
            todos = state["todos"]
            roll = rng.random()
            if not todos or (roll < 0.45 and len(todos) < most):
                todo_id = str(uuid.UUID(int=rng.getrandbits(128))).upper()
                title = rng.choice(titles)
                created = 1795000000 + seq * 1.5
                action, name = {"addTodo": {"createdAt": created, "id": todo_id, "title": title}}, "addTodo"
                todos = todos + [{"createdAt": created, "id": todo_id, "isComplete": False, "tags": [], "title": title}]
            elif roll < 0.85:
                index = rng.randrange(len(todos))
                action, name = {"toggleCompleted": {"id": todos[index]["id"]}}, "toggleCompleted"
                todos = list(todos)
                todos[index] = dict(todos[index], isComplete=not todos[index]["isComplete"])
            elif roll < 0.93:
                action, name = {"clearCompleted": {}}, "clearCompleted"
                todos = [todo for todo in todos if not todo["isComplete"]]
            else:
                which = rng.choice(["all", "active", "completed"])
                action, name = {"setFilter": {"_0": which}}, "setFilter"
                state = dict(state, filter=which)
            state = dict(state, todos=todos)
            file.write(line({"action": action, "kind": "action", "name": name, "origin": "app", "seq": seq,
                             "state": state, "time": seq * 0.25}) + "\n")
        file.write(line({"actions": count, "dropped": 0, "kind": "end", "reason": "finished", "time": count * 0.25}) + "\n")


if __name__ == "__main__":
    main()
