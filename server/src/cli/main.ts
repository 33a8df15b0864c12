process.stdout.write('mthds: not built yet\n');
