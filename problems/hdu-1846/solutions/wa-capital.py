# WRONG: correct rule, but prints "First"/"Second" with a capital letter.
import sys


def main():
    data = sys.stdin.buffer.read().split()
    c = int(data[0])
    out = []
    for i in range(c):
        n = int(data[1 + 2 * i])
        m = int(data[2 + 2 * i])
        out.append("First" if n % (m + 1) != 0 else "Second")
    sys.stdout.write("\n".join(out) + "\n")


main()
