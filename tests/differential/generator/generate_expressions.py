"""Writes the generated differential programs 274-279 (arithmetic, comparison/bitwise, math and
format expressions over integer/float/string edge values) into tests/differential/.

Usage: python3 tests/differential/generator/generate_expressions.py [output_dir]
The seeds are fixed, so the output is the same on every run. "literal" programs write operands
as literals (the compiler may fold them); "runtime" programs read them from a table.
"""
import os
import random
import sys
ints = ["0", "1", "-1", "2", "3", "7", "-7", "10", "255", "1000000007", "math.maxinteger", "math.mininteger",
        "2147483648", "-2147483649", "9007199254740993", "-3"]
floats = ["0.0", "-0.0", "0.5", "-1.5", "2.5", "3.0", "1e15", "1e16", "1e308", "-1e308", "5e-324", "0.1",
          "math.huge", "-math.huge", "(1/3)", "-2.0", "7.5", "1e-7", "123456.789"]
strs = ['"10"', '"0x10"', '"1e1"', '" 5 "', '"3.0"', '"-2"']
arith = ["+", "-", "*", "/", "//", "%", "^"]
cmp = ["==", "~=", "<", "<=", ">", ">="]
bit = ["&", "|", "~", "<<", ">>"]

def val(r, allow_str=False):
    x = r.random()
    if allow_str and x < 0.08: return r.choice(strs)
    if x < 0.55: return r.choice(ints)
    return r.choice(floats)

def expr(r, kind):
    if kind == "arith":
        a, b = val(r, True), val(r, True)
        op = r.choice(arith)
        if r.random() < 0.3:
            c = val(r); op2 = r.choice(arith)
            return f"{a} {op} {b} {op2} {c}"
        if r.random() < 0.1: return f"-({a} {op} {b})"
        return f"{a} {op} {b}"
    if kind == "cmp":
        a, b = val(r), val(r)
        if r.random() < 0.5:
            return f"{a} {r.choice(cmp)} {b}"
        a, b = r.choice(ints + ["3.0", "-2.0", "2^53", "1.5", '"3"']), r.choice(ints[:10] + ["3.0", "64", "-1"])
        op = r.choice(bit)
        if r.random() < 0.2: return f"~{a}"
        return f"{a} {op} {b}"
    if kind == "math":
        a, b = val(r), val(r)
        f = r.choice(["math.floor(A)", "math.ceil(A)", "math.abs(A)", "math.tointeger(A)", "math.fmod(A, B)",
                      "math.max(A, B)", "math.min(A, B)", "math.sqrt(A)", "math.type(A)", "tostring(A)",
                      "string.format('%.14g', A)", "string.format('%.3f', A)", "string.format('%g', A)",
                      "string.format('%5.1f', A)", "string.format('%d', A)", "string.format('%x', A)",
                      "string.format('%e', A)", "tonumber(tostring(A))", "A .. ''", "math.ult(A, B)",
                      "string.format('%q', A)", "(A) // 1", "math.modf(A)", "-(A)", "string.format('%10.2e', A)"])
        return f.replace("A", a).replace("B", b)

def program(seed, kind, runtime, n):
    r = random.Random(seed)
    out = ["-- Generated from a fixed seed: %d %s expressions, %s operands." % (n, kind,
           "runtime (values read from a table)" if runtime else "literal (the compiler may fold them)"),
           "local results = {}",
           "local function show(v)",
           "  if type(v) == 'number' then return math.type(v) .. ':' .. tostring(v) end",
           "  return type(v) .. ':' .. tostring(v)",
           "end",
           "local function t(label, f)",
           "  local ok, a, b = pcall(f)",
           "  local line",
           "  if ok then line = label .. ' = ' .. show(a) .. (b ~= nil and (' , ' .. show(b)) or '')",
           "  else line = label .. ' ! ' .. tostring(a) end",
           "  print(line)",
           "  results[#results + 1] = line",
           "end"]
    exprs = [expr(r, kind) for _ in range(n)]
    if runtime:
        # replace each literal operand with a table lookup, so nothing is constant-folded
        pool = sorted(set(ints + floats + strs))
        out.append("local V = {")
        for i, p in enumerate(pool):
            out.append(f"  [{i + 1}] = {p},")
        out.append("}")
        idx = {p: i + 1 for i, p in enumerate(pool)}
    for i, e in enumerate(exprs):
        label = e.replace("'", "\\'")
        src = e
        if runtime:
            src = runtime_sub(e, idx)
        out.append(f"t('{label}', function() return {src} end)")
    out.append("return #results")
    return "\n".join(out) + "\n"

def runtime_sub(e, idx):
    # tokenise: replace operands that are in idx, scanning greedily by longest match
    keys = sorted(idx, key=len, reverse=True)
    res, i = [], 0
    while i < len(e):
        for k in keys:
            if e.startswith(k, i):
                prev = e[i - 1] if i > 0 else " "
                after = e[i + len(k)] if i + len(k) < len(e) else " "
                # operand boundary: not part of a bigger number/identifier
                if (prev in " (,-~" ) and not (after.isalnum() or after in "._"):
                    res.append(f"V[{idx[k]}]"); i += len(k); break
        else:
            res.append(e[i]); i += 1
    return "".join(res)

specs = [(274, "arith", False, 300), (275, "arith", True, 300), (276, "cmp", False, 250), (277, "cmp", True, 250),
         (278, "math", False, 250), (279, "math", True, 250)]
for num, kind, runtime, n in specs:
    name = f"{num}_generated_{kind}_{'runtime' if runtime else 'literal'}.lua"
    out_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    text = program(num * 7919, kind, runtime, n)
    if runtime:
        text = text.replace("operands.\n", "operands.\n-- Labels show the expression with literal operands; runtime programs read each operand from V\n-- (so a negative literal there is a negative value, not a unary minus).\n", 1)
    open(os.path.join(out_dir, name), "w").write(text)
    print(name)
