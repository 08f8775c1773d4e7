"""Writes the generated differential programs 280-281 (string library calls with edge arguments:
sub/byte/rep/find(plain)/upper/lower/reverse/len/format/char/utf8) into tests/differential/.

Usage: python3 tests/differential/generator/generate_strings.py [output_dir]
Fixed seeds: the output is the same on every run.
"""
import os
import random
import sys

subjects = ['""', '"a"', '"hello"', '"Hello, World"', '"a,b,,c"', '"x\\0y"', '"ümlaut"', '"  pad  "',
            '"%d%%"', '"aaa"', '"abcabc"', '"123"', '"(x)[y]{z}"']
idx = ["0", "1", "2", "3", "-1", "-2", "-5", "100", "-100", "2.0", "math.maxinteger", "math.mininteger", "5"]
needles = ['""', '"a"', '"l"', '"lo"', '","', '",,"', '"x"', '"%d"', '"(x)"', '"["', '"abc"', '"\\0"', '"."']
fmts = ["'%5s'", "'%-5s|'", "'%.2s'", "'%5.1s|'", "'%q'", "'%s'", "'[%10s]'", "'%-10s]'"]
nums = ["0", "1", "-1", "3.5", "-0.0", "1e10", "255", "65", "1/3", "2^53", "math.pi", "100", "-42"]
nfmts = ["'%d'", "'%5d'", "'%-5d|'", "'%05d'", "'%+d'", "'%x'", "'%X'", "'%#x'", "'%o'", "'%c'", "'%e'",
         "'%.2e'", "'%f'", "'%.0f'", "'%10.3f'", "'%-10.3f|'", "'%g'", "'%.3g'", "'%10g'", "'%i'", "'%5.2f%%'",
         "'%+.1f'", "'% d'", "'%a'"]


def call(r):
    s = r.choice(subjects)
    k = r.random()
    if k < 0.18:
        return f"string.sub({s}, {r.choice(idx)}, {r.choice(idx)})"
    if k < 0.26:
        return f"string.sub({s}, {r.choice(idx)})"
    if k < 0.38:
        return f"string.byte({s}, {r.choice(idx)}, {r.choice(idx)})"
    if k < 0.45:
        count = r.choice(['0', '1', '3', '-1', '2.0', '2.5'])
        sep = r.choice(['nil', '","', '""', '"--"'])
        return f"string.rep({s}, {count}, {sep})"
    if k < 0.62:
        return f"string.find({s}, {r.choice(needles)}, {r.choice(idx)}, true)"
    if k < 0.68:
        return f"({s}):{r.choice(['upper', 'lower', 'reverse', 'len'])}()"
    if k < 0.78:
        return f"string.format({r.choice(fmts)}, {s})"
    if k < 0.92:
        f = r.choice(nfmts)
        if f == "'%a'":
            f = "'%d'"
        return f"string.format({f}, {r.choice(nums)})"
    if k < 0.96:
        return f"string.char({r.choice(['72', '0', '255', '256', '-1', '65.0', '97, 98, 99'])})"
    return f"utf8.len({s}, {r.choice(['1', '2', '-1', '0', '10'])})"


def program(seed, n):
    r = random.Random(seed)
    out = [f"-- Generated from a fixed seed: {n} string library calls with edge arguments.",
           "local results = {}",
           "local function show(...)",
           "  local parts = {}",
           "  for i = 1, select('#', ...) do",
           "    local v = select(i, ...)",
           "    if type(v) == 'string' then",
           "      local b = {}",
           "      for j = 1, #v do",
           "        local c = v:byte(j)",
           "        b[j] = (c >= 32 and c < 127) and string.char(c) or ('\\\\' .. c)",
           "      end",
           "      parts[i] = '\"' .. table.concat(b) .. '\"'",
           "    elseif type(v) == 'number' then parts[i] = math.type(v) .. ':' .. tostring(v)",
           "    else parts[i] = tostring(v) end",
           "  end",
           "  return table.concat(parts, ', ')",
           "end",
           "local function t(label, f)",
           "  local r = table.pack(pcall(f))",
           "  local line",
           "  if r[1] then line = label .. ' = ' .. show(table.unpack(r, 2, r.n))",
           "  else line = label .. ' ! ' .. tostring(r[2]) end",
           "  print(line)",
           "  results[#results + 1] = line",
           "end"]
    for _ in range(n):
        e = call(r)
        label = e.replace("\\", "\\\\").replace("'", "\\'")
        out.append(f"t('{label}', function() return {e} end)")
    out.append("return #results")
    return "\n".join(out) + "\n"


out_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
for num, n in [(280, 300), (281, 300)]:
    name = f"{num}_generated_strings.lua"
    open(os.path.join(out_dir, name), "w").write(program(num * 104729, n))
    print(name)
