"""Writes the generated differential programs 296-299 (long binary-operator chains: sums,
mixed precedence, bitwise, comparison, `and`/`or` with side effects, `..` runs) into
tests/differential/.

Usage: python3 tests/differential/generator/generate_chains.py [output_dir]
The seeds are fixed, so the output is the same on every run. The chains are far longer than the
parser's nesting limit (200): a run of operators at one level must parse and compile in a loop.
`..` runs stay at 150 operands, under the 197 lua5.4 accepts (longer runs are tested in
crates/codemode-lua/tests/chains.rs).
"""
import os
import random
import sys

OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")


def wrap(expr, width=100):
    """Split a long one-line expression into lines of about `width` characters at spaces."""
    out, line = [], ""
    for tok in expr.split(" "):
        if len(line) + len(tok) + 1 > width and line:
            out.append(line)
            line = ""
        line = (line + " " + tok) if line else tok
    out.append(line)
    return "\n  ".join(out)


def write(name, text):
    with open(os.path.join(OUT, name), "w") as f:
        f.write(text)


def sums():
    r = random.Random(296)
    lines = ["-- Long left-associative arithmetic chains (thousands of terms, far past the nesting",
             "-- limit of 200): plain sums, mixed precedence, integer/float mixes, locals and fields.",
             "local a, b, c = 3, -7, 2.5",
             "local t = {x = 11, y = {z = 4}}"]
    # 5,000-term integer sum.
    lines.append("local s1 = " + wrap(" + ".join(["1"] * 5000)))
    lines.append("print('s1', s1, math.type(s1))")
    # Alternating + and - over locals and literals.
    terms = []
    for i in range(4000):
        terms.append(r.choice(["a", "b", "t.x", "t.y.z", str(r.randint(-50, 50)), "(a - b)"]))
    expr = terms[0]
    for tm in terms[1:]:
        expr += " " + r.choice(["+", "-"]) + " " + tm
    lines.append("local s2 = " + wrap(expr))
    lines.append("print('s2', s2, math.type(s2))")
    # Mixed precedence: 1 + 2 * 3 - 4 // 2 + 5 % 3 ... (each product is its own short chain).
    parts = []
    for i in range(3000):
        k = r.randint(1, 9)
        form = r.choice(["{k}", "{k} * {m}", "{k} * a * {m}", "{k} // 2", "{k} % 4", "-{k}",
                         "{k} * b // 3", "{k} ^ 2", "a * {k} % 5"])
        parts.append(form.format(k=k, m=r.randint(1, 5)))
    expr = parts[0]
    for p in parts[1:]:
        expr += " " + r.choice(["+", "-"]) + " " + p
    lines.append("local s3 = " + wrap(expr))
    lines.append("print('s3', s3, math.type(s3))")
    # Float chain (division and float literals make every step a float).
    parts = [str(r.randint(1, 100)) for _ in range(2500)]
    expr = parts[0]
    for p in parts[1:]:
        expr += " " + r.choice(["+", "-", "+", "*", "/"]) + " " + r.choice([p, p + ".5", "c"])
    lines.append("local s4 = " + wrap(expr))
    lines.append("print('s4', string.format('%.6g', s4), math.type(s4))")
    # A long chain inside a function call argument, a table constructor and a return.
    lines.append("local function id(...) return ... end")
    lines.append("print('call', id(" + wrap(" + ".join(["a"] * 1000)) + ", 2))")
    lines.append("local tt = {" + wrap(" - ".join(["b"] * 700)) + ", k = " +
                 wrap(" * ".join(["1"] * 600)) + "}")
    lines.append("print('table', tt[1], tt.k)")
    # Chains assigned to locals that they read (the accumulator must not clobber them).
    lines.append("local x = 5")
    lines.append("x = x + 1 + x + x * 2 - x")
    lines.append("print('self', x)")
    lines.append("x = 1 + x + " + wrap(" + ".join(["x"] * 300)))
    lines.append("print('self2', x)")
    lines.append("return {s1, s2, s3, s4, x}")
    write("296_chain_long_arith.lua", "\n".join(lines) + "\n")


def bitwise_and_compare():
    r = random.Random(297)
    lines = ["-- Long bitwise chains and comparison chains: `a < b == true`, `x == y ~= false`,",
             "-- bitwise runs of every priority, in value and in condition position."]
    lines.append("local m, n = 0x5A5A, 0x0FF0")
    ops = ["|", "&", "~", "<<", ">>"]
    parts = [str(r.randint(0, 255))]
    for i in range(3000):
        op = r.choice(ops)
        v = str(r.randint(0, 3)) if op in ("<<", ">>") else r.choice(
            [str(r.randint(0, 0xFFFF)), "m", "n", "(m ~ n)"])
        parts.append(op + " " + v)
    lines.append("local b1 = " + wrap(" ".join(parts)))
    lines.append("print('b1', b1)")
    lines.append("local b2 = " + wrap(" | ".join("(1 << %d)" % (i % 62) for i in range(2000))))
    lines.append("print('b2', b2)")
    # Comparison chains: left to right, each result a boolean.
    lines.append("local a, b = 1, 2")
    lines.append("print('c1', a < b == true, a > b == false, a < b ~= false == true)")
    lines.append("print('c2', 1 == 1 == true ~= false, a <= b == (b >= a))")
    chain = "a < b" + "".join(r.choice([" == true", " ~= false", " == false", " ~= true"])
                             for _ in range(1500))
    lines.append("local c3 = " + wrap(chain))
    lines.append("print('c3', c3)")
    lines.append("if " + wrap(chain) + " then print('c3 if', true) else print('c3 if', false) end")
    lines.append("local cnt = 0")
    lines.append("while " + wrap("cnt < 3 == true ~= false") + " do cnt = cnt + 1 end")
    lines.append("print('while', cnt)")
    lines.append("local ok, e = pcall(function() return 1 < 2 < 3 end)")
    lines.append("print('err', ok, (e:gsub('^[^:]*:[%d:]+ ', '')))")
    lines.append("local ok2, e2 = pcall(function() local u return 1 + 2 + u + 3 end)")
    lines.append("print('err2', ok2, (e2:gsub('^[^:]*:[%d:]+ ', '')))")
    lines.append("local t = {}")
    lines.append("local ok3, e3 = pcall(function() return 1 + 2 * 3 + t.missing - 4 end)")
    lines.append("print('err3', ok3, (e3:gsub('^[^:]*:[%d:]+ ', '')))")
    lines.append("local ok4, e4 = pcall(function() return t.a.b + 1 + 2 end)")
    lines.append("print('err4', ok4, (e4:gsub('^[^:]*:[%d:]+ ', '')))")
    lines.append("return {b1, b2, c3, cnt}")
    write("297_chain_bitwise_compare.lua", "\n".join(lines) + "\n")


def logic():
    r = random.Random(298)
    lines = ["-- `and`/`or` chains with short-circuit side effects (every evaluated operand prints),",
             "-- long runs in value, `if`, `while`, `repeat` and `not` positions, mixed with",
             "-- comparisons and arithmetic in one run.",
             "local log = {}",
             "local function p(tag, v) log[#log + 1] = tag return v end",
             "local function flush(what) print(what, table.concat(log, ' ')) log = {} end",
             "local T, F = true, false"]
    truthy = ["T", "1", "'s'", "0"]
    falsy = ["F", "nil", "false"]
    # (terms, probability of `and`, probability of a truthy operand): mostly-truthy `and` runs
    # and mostly-falsy `or` runs evaluate far before short-circuiting.
    shapes = [(3, 0.5, 0.5), (5, 0.5, 0.6), (20, 0.5, 0.5), (250, 0.9, 0.97), (600, 0.1, 0.05),
              (400, 0.8, 0.9), (300, 0.3, 0.2), (40, 0.5, 0.5)]
    for case, (n, p_and, p_true) in enumerate(shapes):
        def val():
            return r.choice(truthy) if r.random() < p_true else r.choice(falsy)
        expr = "p(0, %s)" % val()
        for i in range(1, n):
            expr += " %s p(%d, %s)" % ("and" if r.random() < p_and else "or", i, val())
        lines.append("local v%d = %s" % (case, wrap(expr)))
        lines.append("flush('v%d ' .. tostring(v%d))" % (case, case))
        lines.append("if %s then flush('if%d then') else flush('if%d else') end" %
                     (wrap(expr), case, case))
        lines.append("if not (%s) then flush('not%d then') else flush('not%d else') end" %
                     (wrap(expr), case, case))
    # Mixed: comparison and arithmetic links before and/or links in one run.
    lines.append("local x = 4")
    lines.append("local m1 = p('a', x) + 1 == 5 and p('b', x) * 2 > 7 and p('c', 'yes') or p('d', 'no')")
    lines.append("flush('m1 ' .. tostring(m1))")
    lines.append("local m2 = p('a', x) - 1 < 0 and p('b', 'neg') or p('c', x) > 3 and p('d', 'big') or p('e', 'small')")
    lines.append("flush('m2 ' .. tostring(m2))")
    lines.append("x = x > 3 and x + 1 or x - 1")
    lines.append("print('x', x)")
    lines.append("x = nil and 1 or x and x + 1 or 0")
    lines.append("print('x2', x)")
    lines.append("local i = 0")
    lines.append("while p('w', i) < 3 and p('w2', true) or p('w3', false) do i = i + 1 end")
    lines.append("flush('while ' .. i)")
    lines.append("local j = 0")
    lines.append("repeat j = j + 1 until p('r', j) >= 2 and p('r2', j) % 2 == 0 or p('r3', j) > 5")
    lines.append("flush('repeat ' .. j)")
    long_or = " or ".join("p(%d, %s)" % (k, "false" if k < 999 else "'last'") for k in range(1000))
    lines.append("local lo = " + wrap(long_or))
    lines.append("print('long or', lo, #log) log = {}")
    long_and = " and ".join("p(%d, %d)" % (k, k) for k in range(1000))
    lines.append("local la = " + wrap(long_and))
    lines.append("print('long and', la, #log) log = {}")
    lines.append("return {v0, v1, v2, v3, v4, v5, v6, v7, m1, m2, x, lo, la}")
    write("298_chain_logic_side_effects.lua", "\n".join(lines) + "\n")


def concat():
    r = random.Random(299)
    lines = ["-- `..` runs of 150 operands (lua5.4 accepts at most 197), mixed with arithmetic",
             "-- (tighter), comparisons and `and`/`or` (looser) in one expression.",
             "local a, f, s = 7, 2.5, 'str'",
             "local t = {k = 'K'}"]
    ops = ["a", "f", "s", "t.k", "'x'", "1", "2.0", "-3", "a + 1", "a * f", "2 ^ 3", "(a .. s)",
           "#s", "a // 2"]
    expr = " .. ".join(r.choice(ops) for _ in range(150))
    lines.append("local c1 = " + wrap(expr))
    lines.append("print('c1', c1, #c1)")
    lines.append("local c2 = 1 + 2 .. 3 * 4 .. a - 1 .. f")
    lines.append("print('c2', c2)")
    lines.append("local c3 = a .. s == '7str' and s .. a or 'no' .. s")
    lines.append("print('c3', c3)")
    lines.append("local c4 = 'a' .. 'b' < 'a' .. 'c' == true")
    lines.append("print('c4', c4)")
    lines.append("local parts = {}")
    lines.append("for i = 1, 3 do parts[i] = i .. ':' .. i * i .. ';' .. (i % 2 == 0 and 'even' or 'odd') end")
    lines.append("print('loop', table.concat(parts, ','))")
    lines.append("local acc = ''")
    lines.append("for i = 1, 5 do acc = acc .. i .. ',' .. acc end")
    lines.append("print('self', acc)")
    lines.append("local ok, e = pcall(function() return 'a' .. nv .. 'b' end)")
    lines.append("print('err', ok, (e:gsub('^[^:]*:[%d:]+ ', '')))")
    lines.append("local ok2, e2 = pcall(function() return 'a' .. 'b' .. t .. 'c' end)")
    lines.append("print('err2', ok2, (e2:gsub('^[^:]*:[%d:]+ ', '')))")
    lines.append("return {c1, c2, c3, c4, acc}")
    write("299_chain_concat_runs.lua", "\n".join(lines) + "\n")


sums()
bitwise_and_compare()
logic()
concat()
