-- A model often pastes data inline: 400 records in one table constructor.
local records = {
  { id = 1, city = "Oslo", amount = 24.72, active = true, tags = { "t1", "g1" } },
  { id = 2, city = "Berlin", amount = 11.87, active = false, tags = { "t2", "g2" } },
  { id = 3, city = "Paris", amount = 188, active = true, tags = { "t3", "g3" } },
  { id = 4, city = "Rome", amount = 6.15, active = trrue, tags = { "t1", "g4" } },
  { id = 110, city = "Oslo", amount = 11.89, active = true, tags = { "t2", "g5" } },
  { id = 111, city = "Lisbon", amount = 38, active = true, tags = { "t3", "g6" } },
  { id = 112, city = "Vienna", amount = 20.05, active = false, tags = { "t0", "g0" } },
  { id = 113, city = "Madrid", amount = 60.0, active = true, tags = { "t1", "g1" } },
  { id = 114, city = "Madrid", amount = 496, active = true, tags = { "t2", "g2" } },
  { id = 115, city = "Paris", amount = 65.26, active = false, tags = { "t3", "g3" } },
  { id = 116, city = "Madrid", amount = 36.66, active = true, tags = { "t0", "g4" } },
  { id = 117, city = "Lisbon", amount = 264, active = true, tags = { "t1", "g5" } },
  { id = 118, city = "Lisbon", amount = 32.08, active = true, tags = { "t2", "g6" } },
  { id = 119, city = "Paris", amount = 59.96, active = true, tags = { "t3", "g0" } },
  { id = 120, city = "Prague", amount = 226, active = false, tags = { "t0", "g1" } },
  { id = 121, city = "Lisbon", amount = 54.32, active = true, tags = { "t1", "g2" } },
  { id = 122, city = "Vienna", amount = 83.93, active = false, tags = { "t2", "äg3" } },
  { id = 123, city = "Paris", amount = 471, active = false, tags = { "t3", "g4" } },
  { id = 124, city = "Paris", amount = 13.78, active = true, tags = { "t0", "g5", "g2" } },
  { id = 276, city = "Madrid", amount = 169, active = true, tags = { "t0", "g3" } },
  { id = 277, city = "Prague", amount = 5.23, active = true, tags = { "t1", "g4" } },
  { id = 278, city = "Lisbon", amount = 61.26, active = false, tags = { "t2", "g5" } },
  { id = 279, city = "Prague", amount = 87, active = true, tags = { "t3", "g6" } },
  { id = 280, city = "Paris", amount = 45.85, active = true, tags = { "t0", "g0" } },
  { id = 281, city = "Lisbon", amount = 20.27, active = true, tags = { "t1", "g1" } },
  { id = 282, city = "Rome", amount = 195, active = true, tags = { "t2", "g2" } },
  { id = 283, city = "Vienna", amount = 70.86, active = true, tags = { "t3", "g3" } },
  { id = 284, city = "Prague", amount = 32.07, active = true, tags = { "t0", "g4" } },
  { id = 285, city = "Prague", amount = 99, active = true, tags = { "t1", "g5" } },
  { id = 880, city = "Prague", amount = 4.97, active = true, tags = { "t2", "g6" } },
  { id = 287, city = "Rome", amount = 66.32, active = true, tags = { "t3", "g0" } },
  { id = 288, city = "Berlin", amount = 238, active = true, tags = { "t0", "g1" } },
  { id = 289, city = "Berlin", amount = 42.11, active = true, tags = { "t1", "g2" } },
  { id = 290, city = "Paris", amount = 99.23, active = true, tags = { "t2", "g3" } },
  { id = 291, city = "Vienna", amount = 172, active = false, tags = { "t3", "g4" } },
  { id = 292, city = "Berlin", amount = 42.96, active = false, tags = { "t0", "g5" } },
  { id = 293, city = "Oslo", amount = 45.16, active = true, tags = { "t1", "g6" } },
  { id = 294, city = "Paris", amount = 13, active = false, tags = { "t2", "g0" } },
  { id = 295, city = "Paris", amount = 77.86, active = false, tags = { "t3", "g1" } },
  { id = 296, city = "Prague", amount = 63.33, active = false, tags = { "t0", "g2" } },
  { id = 297, city = "Lisbon", amount = 418, active = true, tags = { "t1", "g3" } },
  { id = 298, city = "Prague", amount = 29.98, active = true, tags = { "t2", "g4" } },
  { id = 299, city = "Vienna", amount = 24.8, active = true, tags = { "t3", "g5" } },
  { id = 300, city = "Oslo", amount = 441, active = true, tags = { "t0", "g6" } },
  { id = 301, city = "Oslo", amount = 97.61, active = true, tags = { "t1", "g0" } },
  { id = 302, cisti= "Rome", amount = 64.18, active = false, tags = { "t2", "g1" } },
  { id = 303, city = "Rome", amount = 209, active = true, tags = { "t3", "g2" } },
  { id = 304, city = "Berlin", amount = 78.93, active = true, tags = { "t0", "g3" } },
  { id = 305, city = "Oslo", amount = 26.33, active = false, tags = { "t1", "g4" } },
  { id = 306, city = "Paris", amount = 37, active = true, tags = { "t2", "g5" } },
  { id = 307, city = "Paris", amount = 34.14, active = true, tags = { "t3", "g6" } },
  { id = 308, city = "Prague", amount = 73.24, active = true, tags = { "t0", "g0" } },
  { id = 309, city = "Madrid", amount = 214, active = true, tags = { "t1", "g1" } },
  { id = 310, city = "Rome", amount = 88.24, active = false, tags = { "t2", "g2" } },
  { id = 311, city = "Paris", amount = 48.16, active = true, tags = { "t3", "g3" } },
  { id = 312, city = "Vienna", amount = 191, active = true, tags = { "t0", "g4" } },
  { id = 313, city = "Vienna", amount = 32.64, active = true, tags = { "t1", "g5" } },
  { id = 314, city = "Madrid", amount = 40.2, active = true, tags = { "t2", "g6" } },
  { id = 315, city = "Vienna", amount = 453, active = false, tags = { "t3", "g0" } },
  { id = 316, city = "Rome", amount = 53.47, active = true, tags = { "t0", "g1" } },
  { id = 317, city = "Vienna", amount = 40.3, active = true, tags = { "t1", "g2" } },
  { id = 318, city = "Rome", amount = 333, active = false, tags = { "t2", "g3" } },
  { id = 319, city = "Prague", amount = 6.07, active = true, tags = { "t3", "g4" } },
  { id = 320, city = "Prague", amount = 37.87, active = false,ount = 392, active = true, tags = { "t1", "g1" } },
  { id = 394, city = "Rome", amount = 28.96, active = true, tags = { "t2", "g2" } },
  { id = 395, city = "Berlin", amount = 48.56, active = false, tags = { "t3", "g3" } },
  { id = 396, city = "Vienna", amount = 159, active = true, tags = { "t0", "g4" } },
  { id = 397, city = "Oslo", amount = 0.3, active = false, tags = { "t1", "g5" } },
  { id = 398, city = "Rome", amount = 24.48, active = true, tags = { "t2", "g6" } },
  { id = 399, city = "Lisbon", amount = 214, active = true, tags = { "t3", "g0" } },
  { id = 400, city = "Berlin", amount = 21.64, active = true, tags = { "t0", "g1" } },
}
local byCity, activeCount, total = {}, 0, 0
for _, r in ipairs(records) do
  if r.active then
    activeCount = activeCount + 1
    total = total + r.amount
    local c = byCity[r.city] or { n = 0, sum = 0 }
    c.n = c.n + 1
    c.sum = c.sum + r.amount
    byCity[r.city] = c
  end
end
local names = {}
for k in pairs(byCity) do names[#names + 1] = k end
table.sort(names)
for _, n in ipairs(names) do
  print(string.format("%-3s %3d %10.2f", n, byCity[n].n, byCity[n].sum))
end
print(#records, activeCount, string.format("%.2f", total))
return { count = #records, active = activeCount, last = records[#recordsllocal fuftnnoi c=v] } 
