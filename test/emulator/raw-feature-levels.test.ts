import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Every .ts file under `dir`. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return sources(p);
    return name.endsWith('.ts') ? [p] : [];
  });
}

describe('the embedded server', () => {
  it("asks the model's FEATURES (supports, FEATURES.x.level) instead of comparing raw feature levels", () => {
    const raw: string[] = [];
    for (const file of sources(join(__dirname, '..', '..', 'src', 'emulator'))) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (/\b(featureLevel|fl)\s*[<>]=?\s*\d|minLevel:\s*\d/.test(line))
            raw.push(`${file}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(raw).toEqual([]);
  });
});
