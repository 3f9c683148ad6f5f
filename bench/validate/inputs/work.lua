-- Words counted and sorted, strings built, closures and numbers: an interpreter's mix.
local f = assert(io.open(arg[1]))
local text = f:read("a")
f:close()
local count, order = {}, {}
for w in text:gmatch("[%a_][%w_]*") do
	if not count[w] then order[#order + 1] = w end
	count[w] = (count[w] or 0) + 1
end
table.sort(order, function(a, b)
	if count[a] ~= count[b] then return count[a] > count[b] end
	return a < b
end)
local out = {}
for i = 1, math.min(200, #order) do out[#out + 1] = string.format("%s=%d", order[i], count[order[i]]) end
local s = table.concat(out, ",")
local function counter()
	local n = 0
	return function(k) n = n + k; return n end
end
local c = counter()
local sieve, primes = {}, 0
for i = 2, 200000 do
	if not sieve[i] then
		primes = primes + 1
		for j = i * i, 200000, i do sieve[j] = true end
	end
	c(i % 7)
end
print(#order, #s, primes, c(0))
