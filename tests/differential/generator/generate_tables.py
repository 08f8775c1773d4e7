"""Writes the generated differential program 282 (table library, select, tonumber, utf8 and
math calls with edge arguments) into tests/differential/.

Usage: python3 tests/differential/generator/generate_tables.py [output_dir]
Fixed seed: the output is the same on every run. table.move never leaves a hole in its
destination (the length of a table with holes is not unique).
"""
import os
import random
import sys

lists = ["{}", "{1}", "{1, 2, 3}", "{'a', 'b', 'c', 'd'}", "{1.5, 2, '3'}", "{10, 20, 30, 40, 50}"]
pos = ["0", "1", "2", "3", "4", "5", "6", "-1", "2.0", "2.5", "nil"]
utf = ['""', '"abc"', '"héllo"', '"日本"', '"a\\xffb"', '"😀x"']
tnums = ['"10"', '"0x1F"', '"  7  "', '"1e3"', '"abc"', '""', '"z"', '"777"', '"-ff"', '"11"', '"0.5"']
bases = ["nil", "2", "8", "10", "16", "36", "1", "37"]


def call(r):
    k = r.random()
    L = r.choice(lists)
    if k < 0.12:
        return f"(function() local t = {L}; table.insert(t, {r.choice(pos)}, 'x'); return table.concat(t, ',') end)()"
    if k < 0.22:
        return f"(function() local t = {L}; local v = table.remove(t, {r.choice(pos)}); return v, #t end)()"
    if k < 0.32:
        sep = r.choice(['nil', '"-"', '1'])
        return f"table.concat({L}, {sep}, {r.choice(pos)}, {r.choice(pos)})"
    if k < 0.42:
        return f"table.unpack({L}, {r.choice(pos)}, {r.choice(pos)})"
    if k < 0.50:
        return f"table.concat(table.move({L}, {r.choice(['1', '2', '3'])}, {r.choice(['0', '2', '3', '5'])}, {r.choice(['1', '2', '3'])}, {{'p', 'q'}}), ',')"
    if k < 0.58:
        n = r.choice(['1', '2', '-1', '-2', '3', '"#"'])
        return f"select({n}, 'a', nil, 'c')"
    if k < 0.72:
        return f"tonumber({r.choice(tnums)}, {r.choice(bases)})"
    if k < 0.82:
        f = r.choice(["utf8.len(S)", "utf8.codepoint(S, 1, -1)", "utf8.offset(S, 2)", "utf8.offset(S, -1)",
                      "utf8.len(S, 2)", "utf8.codepoint(S, 2)"])
        return f.replace("S", r.choice(utf))
    if k < 0.90:
        return f"table.pack({r.choice(['', 'nil', '1, nil', 'nil, nil, 3'])}).n"
    return f"#{L}, next({L}) ~= nil, rawlen({L}), rawget({L}, {r.choice(pos)})"


def program(seed, n):
    r = random.Random(seed)
    out = [f"-- Generated from a fixed seed: {n} table/select/tonumber/utf8 calls with edge arguments.",
           "local results = {}",
           "local function show(...)",
           "  local parts = {}",
           "  for i = 1, select('#', ...) do",
           "    local v = select(i, ...)",
           "    if type(v) == 'number' then parts[i] = math.type(v) .. ':' .. tostring(v)",
           "    elseif type(v) == 'string' then parts[i] = '\"' .. v .. '\"'",
           "    else parts[i] = tostring(v) end",
           "  end",
           "  return '(' .. select('#', ...) .. ') ' .. table.concat(parts, ', ')",
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
open(os.path.join(out_dir, "282_generated_tables.lua"), "w").write(program(282 * 1299709, 300))
print("282_generated_tables.lua")
