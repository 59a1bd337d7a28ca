#!/usr/bin/env node
'use strict';
// The published package runs the compiled CLI; a checkout builds it on `npm install` (prepare).
require('../dist/cli/main.js')
  .main(process.argv.slice(2))
  .then((code) => {
    process.exitCode = code;
  });
