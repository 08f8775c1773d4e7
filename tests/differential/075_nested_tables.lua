local config = {
  server = { host = "localhost", ports = { 80, 443 }, tls = { enabled = true, cert = "a.pem" } },
  users = { { name = "root", roles = { "admin" } }, { name = "guest", roles = {} } },
  limits = { rate = 10.5, burst = 20 },
}
print(config.server.host, config.server.ports[2], config.server.tls.enabled, #config.users)
print(config.users[1].roles[1], #config.users[2].roles, config.limits.rate * 2)
config.server.ports[#config.server.ports + 1] = 8080
config.users[2].roles[1] = "viewer"
config["limits"]["burst"] = nil
local t = { [1] = "a", [2] = "b", x = { y = { z = "deep" } } }
print(t.x.y.z, t[1] .. t[2], config.limits.burst)
local m = {}
for i = 1, 3 do
  m[i] = {}
  for j = 1, 3 do m[i][j] = i * j end
end
print(m[2][3], m[3][3], #m, #m[1])
return config
