#!/usr/bin/env python3
"""Replays the witness games of `retro check --json` rows with a separate implementation of
the rules, so that a REACHABLE answer does not rest on the core alone.

Usage: replay-witnesses.py BOARDS.obf ROWS.jsonl[.gz]...
       replay-witnesses.py --maxmob ROWS.jsonl[.gz]...

BOARDS.obf is the file that was checked (the row's `index` is its 1-based position among the
board lines; `%` comments and blank lines are skipped). Each witness is a move string such as
`f5d6c3`, where `ps` marks a pass; a forced pass may also be left out, so one is inserted when
the side to move has no move. The replay must end on exactly the board and side to move of
the line. With `--maxmob` the rows are those of `retro maxmob --by-ply` (or `satgen`'s curve):
each witness must be a game of exactly the row's ply that leaves the row's side to move with
the row's number of legal moves (`max`, else `lower`). Prints one line per file and exits 1 on
the first disagreement."""
import gzip
import json
import sys

DIRS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def flips(own, opp, sq):
    """The squares that a disc of `own` on `sq` turns, by walking each line outward."""
    if sq in own or sq in opp:
        return set()
    row, col = divmod(sq, 8)
    turned = set()
    for dr, dc in DIRS:
        line = []
        r, c = row + dr, col + dc
        while 0 <= r < 8 and 0 <= c < 8 and (r * 8 + c) in opp:
            line.append(r * 8 + c)
            r, c = r + dr, c + dc
        if line and 0 <= r < 8 and 0 <= c < 8 and (r * 8 + c) in own:
            turned.update(line)
    return turned


def has_move(own, opp):
    return any(flips(own, opp, sq) for sq in range(64))


def replay(moves):
    """Plays `moves` from the start; returns (black, white, black_to_move)."""
    black, white = {28, 35}, {27, 36}
    black_to_move = True
    tokens = [moves[i : i + 2] for i in range(0, len(moves), 2)]
    for token in tokens:
        own, opp = (black, white) if black_to_move else (white, black)
        if token == "ps":
            if has_move(own, opp):
                raise ValueError("a pass with a legal move")
            black_to_move = not black_to_move
            continue
        if not has_move(own, opp):
            if not has_move(opp, own):
                raise ValueError("a move after the game ended")
            black_to_move = not black_to_move
            own, opp = opp, own
        sq = (int(token[1]) - 1) * 8 + "abcdefgh".index(token[0])
        turned = flips(own, opp, sq)
        if not turned:
            raise ValueError(f"illegal move {token}")
        own |= turned | {sq}
        opp -= turned
        black_to_move = not black_to_move
    return black, white, black_to_move


def boards(path):
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("%"):
                yield line


def parse(line):
    cells, side = line.split()[0], line.split()[1].rstrip(";")
    black = {i for i, ch in enumerate(cells) if ch == "X"}
    white = {i for i, ch in enumerate(cells) if ch == "O"}
    return black, white, side == "X"


def mobility(own, opp):
    return sum(1 for sq in range(64) if flips(own, opp, sq))


def check_maxmob(row):
    """Why the row's witness does not show its maximum or lower bound, or None."""
    moves = row["witness"]
    if len(moves) != 2 * row["ply"]:
        return f"the witness has {len(moves) // 2} plies, not {row['ply']}"
    black, white, black_to_move = replay(moves)
    if black_to_move != (row["side"] == "black"):
        return f"{row['side']} is not to move after the witness"
    own, opp = (black, white) if black_to_move else (white, black)
    want = row["max"] if row.get("max") is not None else row["lower"]
    got = mobility(own, opp)
    return None if got == want else f"{got} legal moves, not {want}"


def check_rows(paths, selected, check, label, what):
    """Replays the witness of every `selected` row of each file: `check(row)` says what is
    wrong with it (or raises ValueError), None if nothing. Exits 1 on the first wrong row."""
    for path in paths:
        opener = gzip.open if path.endswith(".gz") else open
        replayed = 0
        with opener(path, "rt") as f:
            for row in map(json.loads, f):
                if not selected(row):
                    continue
                try:
                    wrong = check(row)
                except ValueError as e:
                    wrong = str(e)
                if wrong:
                    sys.exit(f"{path}: {label(row)}: {wrong}")
                replayed += 1
        print(f"{path}: {replayed} witnesses replayed to their {what}")


def main():
    if len(sys.argv) < 3 or sys.argv[1] in ("-h", "--help"):
        print(__doc__)
        sys.exit(0 if len(sys.argv) > 1 and sys.argv[1] in ("-h", "--help") else 2)
    if sys.argv[1] == "--maxmob":
        check_rows(
            sys.argv[2:],
            lambda row: row.get("witness"),
            check_maxmob,
            lambda row: f"ply {row['ply']} {row['side']}",
            "mobility",
        )
        return
    lines = list(boards(sys.argv[1]))

    def check_board(row):
        want = parse(lines[row["index"] - 1])
        return None if replay(row["witness"]) == want else "the game ends on another board"

    check_rows(
        sys.argv[2:],
        lambda row: row.get("reachable") is True,
        check_board,
        lambda row: f"index {row['index']}",
        "boards",
    )


if __name__ == "__main__":
    main()
