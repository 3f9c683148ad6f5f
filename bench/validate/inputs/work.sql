-- Rows made, indexed, joined, grouped and sorted.
CREATE TABLE t(id INTEGER PRIMARY KEY, k INTEGER, name TEXT, v REAL);
WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 60000)
INSERT INTO t SELECT i, (i * 7919) % 1000, printf('n%05d', (i * 104729) % 50000), i * 0.5 FROM c;
CREATE INDEX t_k ON t(k);
CREATE TABLE u(k INTEGER PRIMARY KEY, label TEXT);
WITH RECURSIVE c(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM c WHERE i < 999)
INSERT INTO u SELECT i, 'label' || i FROM c;
SELECT count(*), sum(v) FROM t JOIN u USING (k) WHERE u.label LIKE 'label1%';
SELECT k, count(*), avg(v) FROM t GROUP BY k ORDER BY 3 DESC LIMIT 5;
SELECT name FROM t WHERE k BETWEEN 100 AND 120 ORDER BY name LIMIT 3;
UPDATE t SET v = v * 2 WHERE k % 3 = 0;
DELETE FROM t WHERE k % 5 = 0;
SELECT count(DISTINCT name), max(v) FROM t;
