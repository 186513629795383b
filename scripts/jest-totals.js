#!/usr/bin/env node
/** Prints `N passed, N failed` summed over one or more `jest --json` result files (CI reads this line). */
const fs = require('fs');

let passed = 0;
let failed = 0;
for (const file of process.argv.slice(2)) {
  if (!fs.existsSync(file)) {
    console.error(`no jest results at ${file}`);
    failed += 1;
    continue;
  }
  const results = JSON.parse(fs.readFileSync(file, 'utf8'));
  passed += results.numPassedTests;
  failed += results.numFailedTests + results.numRuntimeErrorTestSuites;
}
console.log(`${passed} passed, ${failed} failed`);
