# Identifiers counted and the frequent ones listed: fields, a hash table, regular expressions.
{
	gsub(/[^A-Za-z0-9_]+/, " ")
	for (i = 1; i <= NF; i++)
		if ($i ~ /^[a-z_][a-z0-9_]*$/)
			n[$i]++
}
END {
	for (w in n)
		if (n[w] >= 20)
			k++
	print k
}
