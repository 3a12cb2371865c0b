const data = require("fs").readFileSync(0, "utf8").split(/\s+/);
if (data.length > 1) {
    console.log("Yes");
