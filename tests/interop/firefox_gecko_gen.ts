/* firefox_gecko_gen.ts OUT — writes the Gecko profile the Firefox
 * Profiler's own tests use (createGeckoProfile of its
 * src/test/fixtures/profiles/gecko-profile.ts: a parent process and a
 * content process, JS, C++ and label frames, markers) as JSON, for
 * t_firefox.sh's Gecko import check.  Bundled like firefox_judge.ts. */
import * as fs from 'fs';
import { createGeckoProfile } from 'firefox-profiler/test/fixtures/profiles/gecko-profile';

fs.writeFileSync(process.argv[2], JSON.stringify(createGeckoProfile()));
