-- Training: another table, other queries.
CREATE TABLE s(a INTEGER, b TEXT);
WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 20000)
INSERT INTO s SELECT i % 97, hex(i) FROM c;
CREATE INDEX s_a ON s(a);
SELECT a, count(*), min(b) FROM s GROUP BY a ORDER BY 2 DESC LIMIT 3;
SELECT count(*) FROM s x JOIN s y ON x.a = y.a WHERE x.b < '100' AND y.b > 'F';
