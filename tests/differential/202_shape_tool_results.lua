-- Simulated tool responses, reshaped into a compact result.
local responses = {
  { status = 200, body = { data = { { id = "u1", attributes = { name = "Ada", email = "ada@x.io", age = 36 } },
    { id = "u2", attributes = { name = "Linus", email = "l@k.org", age = 54 } } }, meta = { page = 1, pages = 2 } } },
  { status = 200, body = { data = { { id = "u3", attributes = { name = "Grace", email = nil, age = 85 } } },
    meta = { page = 2, pages = 2 } } },
}
local people = {}
for _, resp in ipairs(responses) do
  if resp.status ~= 200 then error("bad status " .. resp.status) end
  for _, rec in ipairs(resp.body.data) do
    local a = rec.attributes
    people[#people + 1] = { id = rec.id, name = a.name, contact = a.email or "n/a", senior = a.age >= 65 }
  end
end
table.sort(people, function(x, y) return x.name < y.name end)
for _, p in ipairs(people) do print(p.id, p.name, p.contact, p.senior) end
return { count = #people, people = people }
