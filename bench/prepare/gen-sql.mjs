#!/usr/bin/env node
// Writes a deterministic H2 script: schema, bulk inserts, indexes, OLTP transactions, then report queries whose
// results are written with CSVWRITE to results-N.csv (relative to the working directory) for the output check.
// usage: node gen-sql.mjs OUT.sql SCALE [SEED]   (SCALE 1 ≈ a few seconds on H2 2.1, 0.02 ≈ a smoke test)
import { writeFileSync } from 'node:fs';
import { rng, vocabulary } from '../lib/rng.mjs';

export function generateSql(scale, seed = 7) {
  const r = rng(seed);
  const vocab = vocabulary(r, 800);
  const nCust = Math.max(50, Math.round(20000 * scale));
  const nItem = Math.max(20, Math.round(5000 * scale));
  const nTx = Math.max(100, Math.round(12000 * scale));
  const lines = [];
  const out = (s) => lines.push(s);
  const name = () => `${r.pick(vocab)} ${r.pick(vocab)}`;
  const money = (lo, hi) => (r.int(lo * 100, hi * 100) / 100).toFixed(2);

  out(`CREATE TABLE customer(id INT PRIMARY KEY, name VARCHAR(80), city VARCHAR(40), balance DECIMAL(14,2), ytd DECIMAL(14,2));`);
  out(`CREATE TABLE item(id INT PRIMARY KEY, title VARCHAR(80), price DECIMAL(10,2), stock INT);`);
  out(`CREATE TABLE orders(id INT PRIMARY KEY, customer_id INT, status VARCHAR(10), total DECIMAL(14,2));`);
  out(`CREATE TABLE order_line(order_id INT, line_no INT, item_id INT, qty INT, amount DECIMAL(12,2), PRIMARY KEY(order_id, line_no));`);
  out(`CREATE TABLE history(id IDENTITY, customer_id INT, amount DECIMAL(12,2), note VARCHAR(60));`);
  const cities = Array.from({ length: 40 }, () => r.pick(vocab));
  const bulk = (table, n, row) => {
    for (let i = 1; i <= n; i += 200) {
      const rows = [];
      for (let j = i; j < Math.min(n + 1, i + 200); j++) rows.push(row(j));
      out(`INSERT INTO ${table} VALUES ${rows.join(', ')};`);
    }
  };
  bulk('customer', nCust, (id) => `(${id}, '${name()}', '${r.pick(cities)}', ${money(-100, 5000)}, 0)`);
  bulk('item', nItem, (id) => `(${id}, '${name()}', ${money(1, 300)}, ${r.int(10, 500)})`);
  out(`CREATE INDEX customer_city ON customer(city);`);
  out(`CREATE INDEX orders_customer ON orders(customer_id);`);
  out(`CREATE INDEX order_line_item ON order_line(item_id);`);

  let orderId = 0;
  for (let t = 0; t < nTx; t++) {
    const k = r.next();
    const c = r.int(1, nCust);
    if (k < 0.45) { // new order
      orderId++;
      const lines = r.int(1, 6);
      out(`INSERT INTO orders VALUES (${orderId}, ${c}, 'NEW', 0);`);
      for (let l = 1; l <= lines; l++) {
        const it = r.int(1, nItem);
        const q = r.int(1, 9);
        out(`INSERT INTO order_line SELECT ${orderId}, ${l}, id, ${q}, price * ${q} FROM item WHERE id = ${it};`);
        out(`UPDATE item SET stock = CASE WHEN stock >= ${q} THEN stock - ${q} ELSE stock + 91 - ${q} END WHERE id = ${it};`);
      }
      out(`UPDATE orders SET total = (SELECT SUM(amount) FROM order_line WHERE order_id = ${orderId}) WHERE id = ${orderId};`);
    } else if (k < 0.8) { // payment
      const a = money(1, 500);
      out(`UPDATE customer SET balance = balance - ${a}, ytd = ytd + ${a} WHERE id = ${c};`);
      out(`INSERT INTO history(customer_id, amount, note) VALUES (${c}, ${a}, '${r.pick(vocab)}');`);
    } else if (k < 0.9) { // order status
      out(`SELECT o.id, o.total, COUNT(l.line_no) FROM orders o LEFT JOIN order_line l ON l.order_id = o.id WHERE o.customer_id = ${c} GROUP BY o.id, o.total ORDER BY o.id;`);
    } else if (k < 0.95 && orderId > 0) { // delivery
      out(`UPDATE orders SET status = 'DONE' WHERE id = ${r.int(1, orderId)} AND status = 'NEW';`);
    } else { // stock level by city
      out(`SELECT COUNT(DISTINCT l.item_id) FROM customer c JOIN orders o ON o.customer_id = c.id JOIN order_line l ON l.order_id = o.id JOIN item i ON i.id = l.item_id WHERE c.city = '${r.pick(cities)}' AND i.stock < ${r.int(50, 200)};`);
    }
  }
  const reports = [
    `SELECT city, COUNT(*) AS n, SUM(balance) AS balance, SUM(ytd) AS ytd FROM customer GROUP BY city ORDER BY city`,
    `SELECT status, COUNT(*) AS n, SUM(total) AS total FROM orders GROUP BY status ORDER BY status`,
    `SELECT i.id, i.title, SUM(l.qty) AS qty, SUM(l.amount) AS amount FROM item i JOIN order_line l ON l.item_id = i.id GROUP BY i.id, i.title ORDER BY qty DESC, i.id LIMIT 100`,
    `SELECT c.id, c.name, COUNT(h.id) AS payments, SUM(h.amount) AS paid FROM customer c JOIN history h ON h.customer_id = c.id GROUP BY c.id, c.name ORDER BY paid DESC, c.id LIMIT 100`,
    `SELECT COUNT(*) AS items, SUM(stock) AS stock, MIN(stock) AS lo, MAX(stock) AS hi FROM item`,
  ];
  reports.forEach((q, i) => out(`CALL CSVWRITE('results-${i + 1}.csv', '${q.replace(/'/g, "''")}');`));
  return lines.join('\n') + '\n';
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [outFile, scale, seed] = process.argv.slice(2);
  writeFileSync(outFile, generateSql(Number(scale), Number(seed ?? 7)));
}
