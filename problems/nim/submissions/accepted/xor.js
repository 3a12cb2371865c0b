const data = require("fs").readFileSync(0, "utf8").split(/\s+/).filter((s) => s.length > 0);
const n = Number(data[0]);
let x = 0;
for (let i = 1; i <= n; i++) x ^= Number(data[i]);
console.log(x !== 0 ? "Yes" : "No");
