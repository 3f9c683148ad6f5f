-- Training: lines and their lengths, a different mix of the same interpreter.
local lines, total = 0, 0
local seen = {}
for line in io.lines(arg[1]) do
	lines = lines + 1
	total = total + #line
	local k = line:match("^%s*(%a+)")
	if k then seen[k] = (seen[k] or 0) + 1 end
end
local fib
fib = function(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end
print(lines, total, fib(24))
