"""Shared by the numeral generators: writes a differential program that calls `t(text, lit)`
once per numeral, with the numeral both as a string and as a literal, then prints and returns
how many disagreed. The caller's preamble defines `results`, `disagree` and `t`."""


def write(path, preamble, cases):
    lines = list(preamble)
    for c in cases:
        lines.append(f't("{c}", {c})')
    lines.append("print('disagree', disagree)")
    lines.append("return results, disagree")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
