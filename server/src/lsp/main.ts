process.stdout.write('mthds-language-server: not built yet\n');
