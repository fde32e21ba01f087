#!/usr/bin/env python3
"""The boards of the GPW 2025 estimate (u-tokyo-gps-tanaka-lab/othello_complexity_rs) as the
CSV `retro check` reads: its lines are 64 characters, a1 to h8 rank by rank, `X` the discs
of the side to move and `O` the other side's, colours not given; a CSV line
`player,opponent` of hexadecimal bitboards (bit 0 = a1) is the same question, and `retro
check` tries both colours to move, as the peer's definition does.

Usage: scripts/gpw-boards-to-csv.py SOURCE-NAME < boards.txt > boards.csv
"""
import sys

source = sys.argv[1]
print("player,opponent")
print(f"% {source}: X = side to move, colours not given (both tried)")
for number, line in enumerate(sys.stdin, 1):
    board = line.strip()
    if len(board) != 64 or set(board) - set("XO-"):
        sys.exit(f"line {number}: not a board of 64 X, O or -")
    player = sum(1 << i for i, c in enumerate(board) if c == "X")
    opponent = sum(1 << i for i, c in enumerate(board) if c == "O")
    print(f"{player:016x},{opponent:016x}")
