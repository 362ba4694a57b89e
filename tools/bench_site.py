#!/usr/bin/python3
"""The static site's visits, timed in headless Chromium (issue 23 item 6,
docs/PERFORMANCE.md): a first visit (an empty browser profile: the module
loaded, the tables built in the worker) from opening the page to the
advisor's first hint on a new solitaire game, then a repeat visit (a reload:
the files from the service worker, the tables from IndexedDB) to the same
hint; and the median time of a hint request inside the page's worker with
the table loaded (the page's own round trip: postMessage, the module, the
reply parsed), once the second worker's spread table is there, and their
mean (the page's clock steps by 100 us, the mean of a whole run does not),
for a first run of 1,200 hints and a second;
and the mean of the same round trip without a hint (the worker's `memory`
message), the part of a hint's time that is not the module's, beside a bare
worker's echo of a message (the browser's own floor); and a hint timed
inside a worker, the site's module with the tables the page kept, no
message between (the engine's own time in the browser).

    /usr/bin/python3 tools/bench_site.py build-wasm/site
"""
import shutil
import sys
import tempfile
import time
from pathlib import Path

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / 'tests' / 'web'))
from browser_test import chromium, static_server  # noqa: E402  (the tests' one way to start Chromium)


def main():
    site = sys.argv[1]
    server, port = static_server(site)
    url = f'http://127.0.0.1:{port}/'
    profile = tempfile.mkdtemp(prefix='penk_bench_site_')
    driver = chromium(profile)
    driver.set_script_timeout(600)
    wait = WebDriverWait(driver, 600, poll_frequency=0.05)
    try:
        def to_first_hint():
            wait.until(lambda d: d.execute_script('return document.body.dataset.ready === "1"'))
            if driver.find_element(By.ID, 'play').get_attribute('hidden') is not None:
                Select(driver.find_element(By.ID, 'seat-0')).select_by_value('human')
                while len(driver.find_elements(By.CSS_SELECTOR, '#seats select')) > 1:
                    driver.find_element(By.ID, 'remove-seat').click()
                driver.find_element(By.ID, 'new-game').click()
            if not driver.find_element(By.ID, 'advisor-on').is_selected():
                driver.find_element(By.ID, 'advisor-on').click()
            wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, '#advisor-table tr')) > 1)

        t0 = time.monotonic()
        driver.get(url)
        to_first_hint()
        first = time.monotonic() - t0
        t0 = time.monotonic()
        driver.refresh()
        to_first_hint()
        repeat = time.monotonic() - t0
        # The spread table comes from the second worker (docs/WEB.md): until
        # then hints have no sd. The hints below are timed with it loaded.
        t0 = time.monotonic()
        driver.execute_async_script('''
          const done = arguments[arguments.length - 1];
          (async () => {
            for (;;) {
              const r = await window.penk.engine.request('hint', {sheet: '...../...../...../...../.....', roll: '12345J', rerolls: 2, top: 1});
              if (r.actions[0].sd !== undefined) break;
              await new Promise((ok) => setTimeout(ok, 250));
            }
            done();
          })();''')
        spread = time.monotonic() - t0
        # Hints through the page's engine (the worker), the tables loaded:
        # 1,200 at once, then 1,200 more. The first run is slower (about
        # twice, 2026-12-06): the browser compiles the module's hot code
        # again, optimised, in the background (wasm tiering), and the
        # second worker may still be busy on the other core.
        hint_run = '''
          const done = arguments[arguments.length - 1];
          (async () => {
            const e = window.penk.engine, out = [];
            const rolls = ['12345J', '1135JJ', '444555', '22233J', '11111J', '5555JJ', '123345', '2244JJ'];
            const start = performance.now();
            for (let i = 0; i < 1200; ++i) {
              const t = performance.now();
              await e.request('hint', {sheet: 'o..../.o.../..o../...o./....o', roll: rolls[i % 8], rerolls: i % 3, top: 3});
              out.push(performance.now() - t);
            }
            out.push(performance.now() - start);  // the whole run, last
            done(out);
          })();'''
        runs = [driver.execute_async_script(hint_run) for _ in range(2)]
        # The same round trip without a hint: the worker's `memory` message
        # (postMessage there and back, the engine's queue, no module call):
        # what the page's hint costs beyond the module's own work.
        hops = driver.execute_async_script('''
          const done = arguments[arguments.length - 1];
          (async () => {
            const e = window.penk.engine;
            const start = performance.now();
            for (let i = 0; i < 1200; ++i) await e.memory();
            done((performance.now() - start) / 1200);
          })();''')
        # The floor under both: a bare worker that echoes each message back
        # (a Blob URL, nothing of ours), the same 250 characters each way.
        echo = driver.execute_async_script('''
          const done = arguments[arguments.length - 1];
          const worker = new Worker(URL.createObjectURL(new Blob(['onmessage = (e) => postMessage(e.data)'])));
          const line = 'x'.repeat(250);
          let n = 0, start = 0;
          worker.onmessage = () => {
            if (n === 200) start = performance.now();  // after a first 200
            if (++n < 1400) worker.postMessage({ line });
            else { worker.terminate(); done((performance.now() - start) / 1200); }
          };
          worker.postMessage({ line });''')
        # The engine alone in the browser: the site's module in a worker of
        # this script's own, reading the tables the page's worker kept in
        # IndexedDB (it builds none), each hint timed inside that worker, no
        # message between: each of the 24 hints of the run above 50 times in
        # a row (the clock's 100 us steps are too coarse for one), after a
        # first 1,200 to warm the module; the median of the 24.
        module = driver.execute_async_script('''
          const done = arguments[arguments.length - 1];
          const source = `import { createEngine } from '${new URL('penk_engine.mjs', location.href)}';
            onmessage = async () => {
              try {
                const e = await createEngine({ build: false });
                const rolls = ['12345J', '1135JJ', '444555', '22233J', '11111J', '5555JJ', '123345', '2244JJ'];
                const line = (i) => JSON.stringify({ id: i, cmd: 'hint', sheet: 'o..../.o.../..o../...o./....o',
                                                     roll: rolls[i % 8], rerolls: i % 3, top: 3 });
                for (let i = 0; i < 1200; ++i) {
                  const reply = JSON.parse(await e.requestLine(line(i)));
                  if (!reply.result || reply.result.actions[0].sd === undefined) throw new Error(JSON.stringify(reply));
                }
                const each = [];
                for (let i = 0; i < 24; ++i) {
                  const t = performance.now();
                  for (let k = 0; k < 50; ++k) await e.requestLine(line(i));
                  each.push((performance.now() - t) / 50);
                }
                postMessage(each);
              } catch (err) {
                postMessage(String(err));
              }
            };`;
          const worker = new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })), { type: 'module' });
          worker.onmessage = (m) => { worker.terminate(); done(m.data); };
          worker.postMessage('go');''')
        if isinstance(module, str):
            raise RuntimeError(f'the engine in a worker of its own: {module}')
        module.sort()
        print(f'first visit to the first hint: {first:.1f} s; repeat visit (reload) to it: {repeat:.2f} s; '
              f'then its spread table (sd) after {spread:.1f} s more')
        # Chromium gives a page performance.now() in steps of 100 us (no
        # cross-origin isolation): each hint's time is a multiple of it, the
        # mean over the whole run is not.
        for name, times in zip(('first', 'again'), runs):
            mean = times.pop() / len(times)
            times.sort()
            print(f'a hint in the page (worker round trip, table loaded), {len(times)} hints, {name}: '
                  f'median {1000 * times[len(times) // 2]:.0f} us, '
                  f'p90 {1000 * times[int(len(times) * 0.9)]:.0f} us (in steps of 100 us), mean {1000 * mean:.0f} us')
        print(f'the round trip without a hint (the memory message), 1200 times: mean {1000 * hops:.0f} us; '
              f'a bare echo worker, 1200 times: mean {1000 * echo:.0f} us')
        print(f'a hint timed inside a worker (the engine alone, tables loaded): median of 24 hints '
              f'{1000 * module[12]:.0f} us (each the mean of 50 in a row), from {1000 * module[0]:.0f} '
              f'to {1000 * module[-1]:.0f} us')
    finally:
        driver.quit()
        server.terminate()
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == '__main__':
    main()
