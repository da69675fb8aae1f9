/// The HTML report's script, inlined in the page. It reads the embedded data (``HTMLReportData``), fills the
/// summary, the few marks and the divergence bar at the top, builds the timeline's rows in chunks (the first at
/// once, the rest between frames), and builds a step's detail (action, changes, state tree, divergence) only when
/// the step is opened, rebuilding states by applying the steps' JSON Patches to the initial state, each computed
/// state kept, and a replayed state by applying its divergence's patch to the recorded one.
enum HTMLReportScript {
    /// The JavaScript.
    static let javaScript = #"""
        "use strict";
        (function () {
          const data = JSON.parse(document.getElementById("report-data").textContent);
          const steps = data.steps;
          const indexOfStep = new Map();
          steps.forEach((step, index) => indexOfStep.set(step.s, index));
          const replay = data.replay;
          const divergenceAt = new Map();
          if (replay) for (const divergence of replay.divergences) divergenceAt.set(divergence.step, divergence);
          const effectDivergenceAt = new Map();
          if (replay) for (const divergence of replay.effectDivergences) {
            if (!effectDivergenceAt.has(divergence.step)) effectDivergenceAt.set(divergence.step, []);
            effectDivergenceAt.get(divergence.step).push(divergence);
          }
          // An effect's lines (calls and ends), by the step of the action line they follow.
          const effectLinesAfter = new Map();
          for (const line of data.effectLines) {
            if (!effectLinesAfter.has(line.after)) effectLinesAfter.set(line.after, []);
            effectLinesAfter.get(line.after).push(line);
          }
          const effectRows = [];
          const driftAt = new Map();
          for (const entry of data.drift) {
            if (!driftAt.has(entry.firstStep)) driftAt.set(entry.firstStep, []);
            driftAt.get(entry.firstStep).push(entry);
          }
          const gaps = data.gaps.slice().sort((a, b) => a.first - b.first);
          const rowsBody = document.getElementById("rows");
          const detail = document.getElementById("detail");
          const searchBox = document.getElementById("search");
          const originBox = document.getElementById("origin");
          const shown = document.getElementById("shown");
          const rows = [];
          let nextGap = 0;
          let selected = null;

          function element(tag, className, text) {
            const node = document.createElement(tag);
            if (className) node.className = className;
            if (text !== undefined) node.textContent = text;
            return node;
          }
          function seconds(time) { return time.toFixed(3) + " s"; }
          function compact(value) {
            const text = JSON.stringify(value);
            return text === undefined ? "null" : (text.length <= 60 ? text : text.slice(0, 57) + "...");
          }
          function described(change) {
            const old = change.oldReadable !== undefined ? change.oldReadable : compact(change.old);
            const now = change.newReadable !== undefined ? change.newReadable : compact(change.new);
            switch (change.kind) {
              case "moved": return change.path + "  moved from " + change.from + " to " + change.to;
              case "added": return change.path + "  (absent) -> " + now;
              case "removed": return change.path + "  " + old + " -> (absent)";
              default: return change.path + "  " + old + " -> " + now;
            }
          }
          function stepLink(step, text) {
            const link = element("a", "", text);
            link.href = "#step=" + step;
            link.addEventListener("click", (event) => { event.preventDefault(); event.stopPropagation(); goTo(step); });
            return link;
          }

          // The top: what the session is, the note, and the marks that link to the steps worth seeing.
          const app = data.session.app;
          document.getElementById("title").textContent = data.source;
          document.getElementById("facts").textContent = "store \"" + data.session.store + "\", " +
            data.session.actions + " actions" +
            (data.session.kept ? " and " + data.session.kept + " kept without their states" : "") +
            ", recorded by " + app.name + (app.version ? " " + app.version : "") +
            (app.build ? " (build " + app.build + ")" : "") + " on " + data.session.startedAt +
            (data.session.ended ? ", ended: " + data.session.ended : ", no end line");
          if (data.note) {
            const note = document.getElementById("note");
            note.textContent = data.note;
            note.hidden = false;
          }
          const marks = document.getElementById("marks");
          function mark(className, text, step) {
            const link = step === undefined ? element("span", className, text) : stepLink(step, text);
            link.className = className;
            marks.append(link);
            return link;
          }
          function plural(count, noun) { return count + " " + noun + (count === 1 ? "" : "s"); }
          function gapText(gap) {
            const steps = gap.first + (gap.last !== gap.first ? "–" + gap.last : "");
            return "gap: " + plural(gap.count, "action") + " not recorded (steps " + steps + ", " + gap.reason +
              (gap.message ? ": " + gap.message : "") + ")";
          }
          function divergenceText(divergence) {
            const changes = divergence.changes;
            return "diverged at step " + divergence.step + ": " + divergence.w + " — " +
              (changes.length === 1 ? described(changes[0]) : changes.length + " differences, first " + changes[0].path);
          }
          const notChecked = replay && replay.effectsNotChecked ? "; effects " + replay.effectsNotChecked : "";
          if (replay && replay.verdict === "match") {
            mark("mark-match", "replay: match, all " + replay.stepsMatched + " states equal" + notChecked);
          } else if (replay && replay.verdict === "incomplete") {
            mark("mark-gap", "replay: incomplete (gaps); the " + replay.stepsMatched + " checked steps match" + notChecked);
          }
          // The first state and effect divergence each have a mark; the divergence bar below walks them all.
          if (replay && replay.effectDivergences.length > 0) {
            const divergence = replay.effectDivergences[0];
            mark("mark-diverged", "effect diverged: " + divergence.text, divergence.step).id = "mark-effect-divergence-" + divergence.step;
          }
          if (replay && replay.divergences.length > 0) {
            const divergence = replay.divergences[0];
            mark("mark-diverged", divergenceText(divergence), divergence.step).id = "mark-divergence-" + divergence.step;
          }
          if (replay && replay.undecodable) {
            const failure = replay.undecodable;
            mark("mark-drift", "undecodable at step " + failure.step + ": " + failure.part +
              (failure.path ? " at " + failure.path : "") + ": " + failure.message, failure.step);
          }
          // At most a few marks of a kind, then how many more: the top keeps its height whatever the count.
          const marksOfAKind = 3;
          function markMore(className, list, noun) {
            if (list.length > marksOfAKind) mark(className, "and " + plural(list.length - marksOfAKind, "more " + noun) + " in the timeline");
          }
          for (const gap of gaps.slice(0, marksOfAKind)) {
            const link = element("a", "mark-gap", gapText(gap));
            link.href = "#gap-" + gap.first;
            link.addEventListener("click", (event) => { event.preventDefault(); goToGap(gap); });
            marks.append(link);
          }
          markMore("mark-gap", gaps, "gap");
          for (const entry of data.drift.slice(0, marksOfAKind)) {
            mark("mark-drift", "drift: " + entry.part + " '" + entry.case + "'" + (entry.path ? " at " + entry.path : "") +
              ", " + entry.count + "×, first at step " + entry.firstStep, entry.firstStep);
          }
          markMore("mark-drift", data.drift, "drifted value");
          for (const link of marks.children) link.title = link.textContent;

          // The timeline, built in chunks so that the first rows paint at once.
          function gapRow(gap) {
            const row = element("tr");
            row.dataset.gap = gap.first;
            row.id = "gap-" + gap.first;
            const cell = element("td", "", gapText(gap));
            cell.colSpan = 6;
            row.append(cell);
            return row;
          }
          function actionRow(step) {
            const row = element("tr");
            row.dataset.step = step.s;
            row.id = "step-" + step.s;
            if (divergenceAt.has(step.s) || effectDivergenceAt.has(step.s)) row.dataset.diverged = "";
            if (driftAt.has(step.s) || (replay && replay.undecodable && replay.undecodable.step === step.s)) row.dataset.drift = "";
            const name = element("td", "name", step.w);
            name.title = step.w;
            row.append(element("td", "num", String(step.s)), element("td", "num", seconds(step.t)), name);
            const origin = element("td");
            origin.append(element("span", "badge " + step.o, step.o));
            row.append(origin);
            const cause = element("td");
            if (step.c !== null) cause.append(stepLink(step.c, "effect of " + step.c));
            row.append(cause);
            // The changed path's leaf and nearest named parent; every changed path whole on hover. The text is cut
            // at its start when the column is narrower, so the leaf stays in sight (see the style's `.changed`).
            const changed = element("td", "changed");
            changed.append(element("span", "", step.d.length === 0 ? "no change" : step.l + (step.d.length === 1 ? "" : " +" + (step.d.length - 1))));
            if (step.d.length > 0) {
              const paths = step.d.slice(0, 20).map((change) => change.path);
              if (step.d.length > 20) paths.push("and " + (step.d.length - 20) + " more");
              changed.title = paths.join("\n");
            }
            row.append(changed);
            row.addEventListener("click", () => select(step.s));
            return row;
          }
          // An effect's line or a note: no step, its time, its one line (data, as text) in the action's column,
          // `call`, `effect end` or `note` in the origin's, and for an effect's line a link to the step that
          // started the run in the cause's.
          function effectRow(line) {
            const row = element("tr", "effect-line");
            row.dataset.effectLine = line.k;
            const text = element("td", "name", line.text);
            text.title = line.text;
            const label = element("td");
            const badge = { call: "call", end: "effect end", note: "note" }[line.k];
            label.append(element("span", line.k === "note" ? "badge note" : "badge effect", badge));
            const cause = element("td");
            if (line.c !== null) {
              cause.append(stepLink(line.c, "run of " + line.c));
              row.addEventListener("click", () => select(line.c));
            }
            row.append(element("td", "num", ""), element("td", "num", seconds(line.t)), text, label, cause, element("td"));
            return row;
          }
          function appendEffectRows(fragment, after, index) {
            for (const line of effectLinesAfter.get(after) || []) {
              const row = effectRow(line);
              row.hidden = index >= 0 && rows[index].hidden;
              effectRows.push([row, index]);
              fragment.append(row);
            }
          }
          const chunk = 400;
          function renderUpTo(limit) {
            const fragment = document.createDocumentFragment();
            const end = Math.min(limit, steps.length);
            if (rows.length === 0) appendEffectRows(fragment, 0, -1);
            while (rows.length < end) {
              const step = steps[rows.length];
              while (nextGap < gaps.length && gaps[nextGap].first < step.s) fragment.append(gapRow(gaps[nextGap++]));
              const row = actionRow(step);
              row.hidden = !matches(rows.length);
              rows.push(row);
              fragment.append(row);
              appendEffectRows(fragment, step.s, rows.length - 1);
            }
            if (rows.length === steps.length) while (nextGap < gaps.length) fragment.append(gapRow(gaps[nextGap++]));
            rowsBody.append(fragment);
            updateCount();
          }
          function renderRest() {
            renderUpTo(rows.length + chunk);
            if (rows.length < steps.length) requestAnimationFrame(renderRest);
            else finished();
          }
          function finished() {
            document.body.dataset.rendered = "all";
            document.body.dataset.allRowsMs = performance.now().toFixed(0);
          }

          // Search and filter.
          const searchText = [];
          function textOf(index) {
            if (searchText[index] === undefined) {
              const step = steps[index];
              searchText[index] = (step.n + " " + step.w + " " + JSON.stringify(step.a) + " " + step.d.map((change) => change.path).join(" ")).toLowerCase();
            }
            return searchText[index];
          }
          function matches(index) {
            const query = searchBox.value.trim().toLowerCase();
            const origin = originBox.value;
            if (origin && steps[index].o !== origin) return false;
            return !query || textOf(index).includes(query);
          }
          function updateCount() {
            let visible = 0;
            for (const row of rows) if (!row.hidden) visible++;
            shown.textContent = visible + " of " + steps.length + " actions shown" + (rows.length < steps.length ? " (loading…)" : "");
          }
          function applyFilter() {
            rows.forEach((row, index) => { row.hidden = !matches(index); });
            for (const [row, index] of effectRows) row.hidden = index >= 0 && rows[index].hidden;
            updateCount();
          }
          searchBox.addEventListener("input", applyFilter);
          originBox.addEventListener("change", applyFilter);

          // States: the initial state and each step's patch; a state is rebuilt when shown and kept. An object's keys
          // are the session's, so every object built from them has no prototype: a member named "__proto__" is a
          // member like any other, and "constructor" or "toString" never finds Object.prototype's.
          const states = [];
          function decodePointer(pointer) {
            if (pointer === "") return [];
            return pointer.slice(1).split("/").map((token) => token.replace(/~1/g, "/").replace(/~0/g, "~"));
          }
          function containerCopy(value) { return Array.isArray(value) ? value.slice() : Object.assign(Object.create(null), value); }
          function member(object, key) { return Object.prototype.hasOwnProperty.call(object, key) ? object[key] : undefined; }
          function valueAt(root, tokens) {
            let value = root;
            for (const token of tokens) value = Array.isArray(value) ? value[Number(token)] : member(value, token);
            return value;
          }
          function changedAt(root, tokens, change) {
            if (tokens.length === 0) return change(undefined, null);
            const copy = containerCopy(root);
            let parent = copy;
            for (let i = 0; i < tokens.length - 1; i++) {
              const key = Array.isArray(parent) ? Number(tokens[i]) : tokens[i];
              parent[key] = containerCopy(Array.isArray(parent) ? parent[key] : member(parent, key));
              parent = parent[key];
            }
            change(parent, tokens[tokens.length - 1]);
            return copy;
          }
          function applied(state, operation) {
            const tokens = decodePointer(operation.path);
            const put = (value, insert) => tokens.length === 0 ? value : changedAt(state, tokens, (parent, key) => {
              if (Array.isArray(parent)) {
                const index = key === "-" ? parent.length : Number(key);
                if (insert) parent.splice(index, 0, value); else parent[index] = value;
              } else parent[key] = value;
            });
            switch (operation.op) {
              case "add": return put(operation.value, true);
              case "replace": return put(operation.value, false);
              case "remove": return changedAt(state, tokens, (parent, key) => {
                if (Array.isArray(parent)) parent.splice(Number(key), 1); else delete parent[key];
              });
              case "copy": return put(valueAt(state, decodePointer(operation.from)), true);
              case "move": {
                const value = valueAt(state, decodePointer(operation.from));
                return applied(applied(state, { op: "remove", path: operation.from }), { op: "add", path: operation.path, value: value });
              }
              default: return state;
            }
          }
          function stateAfter(index) {
            let known = index;
            while (known >= 0 && states[known] === undefined) known--;
            let state = known < 0 ? data.initialState : states[known];
            for (let i = known + 1; i <= index; i++) {
              for (const operation of steps[i].p) state = applied(state, operation);
              states[i] = state;
            }
            return state;
          }

          // A state as a collapsible tree, each level built when first opened.
          function tree(value, label, open) {
            if (value !== null && typeof value === "object") {
              const entries = Array.isArray(value) ? value.map((item, i) => [String(i), item]) : Object.keys(value).sort().map((key) => [key, value[key]]);
              const node = element("details");
              const summary = element("summary");
              summary.append(element("span", "key", label), element("span", "count", Array.isArray(value) ? " [" + entries.length + "]" : " {" + entries.length + "}"));
              node.append(summary);
              let built = false;
              const build = () => {
                if (built) return;
                built = true;
                for (const [key, item] of entries) node.append(tree(item, Array.isArray(value) ? "[" + key + "]" : key, false));
              };
              node.addEventListener("toggle", build);
              if (open) { node.open = true; build(); }
              return node;
            }
            const leaf = element("div", "leaf");
            const kind = value === null ? "null" : typeof value;
            leaf.append(element("span", "key", label + ": "), element("span", "v-" + kind, JSON.stringify(value)));
            return leaf;
          }
          function changeList(changes) {
            const list = element("ul", "changes");
            for (const change of changes) list.append(element("li", "k-" + change.kind, described(change)));
            if (changes.length === 0) list.append(element("li", "", "(no change)"));
            return list;
          }
          function dump(text) {
            const pre = element("pre", "dump");
            for (const line of text.split("\n")) pre.append(element("span", line.startsWith("-") ? "del" : line.startsWith("+") ? "add" : "", line + "\n"));
            return pre;
          }

          function select(stepNumber) {
            const index = indexOfStep.get(stepNumber);
            if (index === undefined) return;
            renderUpTo(index + 1);
            if (selected) selected.classList.remove("selected");
            selected = rows[index];
            selected.classList.add("selected");
            const step = steps[index];
            detail.replaceChildren();
            detail.dataset.selectedStep = step.s;
            showDivergencePosition(step.s);
            detail.append(element("h2", "", "step " + step.s + ": " + step.w));
            const facts = element("p", "hint", (step.o === "app" ? "from the app" : "from an effect") + ", " + seconds(step.t) + " in");
            if (step.c !== null) { facts.append(", caused by "); facts.append(stepLink(step.c, "step " + step.c)); }
            detail.append(facts);
            const divergence = divergenceAt.get(step.s);
            if (divergence) {
              const box = element("section", "divergence");
              box.append(element("h2", "", "diverged: recorded vs replayed"));
              box.append(changeList(divergence.changes));
              box.append(element("p", "hint", "state after this step (- recorded, + replayed)"));
              box.append(dump(divergence.dump));
              const replayedTree = element("div", "tree");
              let replayedState = stateAfter(index);
              for (const operation of divergence.patch) replayedState = applied(replayedState, operation);
              replayedTree.append(tree(replayedState, "replayed state", false));
              box.append(replayedTree);
              detail.append(box);
            }
            for (const effectDivergence of effectDivergenceAt.get(step.s) || []) {
              const box = element("section", "divergence");
              box.append(element("h2", "", "effect diverged: '" + effectDivergence.effect + "', started by step " + effectDivergence.cause +
              (effectDivergence.causeW === null ? "" : " " + effectDivergence.causeW)));
              box.append(element("p", "hint", effectDivergence.text));
              box.append(dump(effectDivergence.dump));
              detail.append(box);
            }
            for (const entry of driftAt.get(step.s) || []) {
              detail.append(element("p", "mark-drift", "drift: the recorded " + entry.part + " '" + entry.case + "'" + (entry.path ? " at " + entry.path : "") + " no longer decodes: " + entry.message));
            }
            detail.append(element("h2", "", "action"));
            detail.append(element("pre", "", JSON.stringify(step.a, null, 2)));
            detail.append(element("h2", "", "changed (" + step.d.length + ")"));
            detail.append(changeList(step.d));
            detail.append(element("h2", "", "state after step " + step.s));
            const stateTree = element("div", "tree");
            stateTree.append(tree(stateAfter(index), "state", true));
            detail.append(stateTree);
          }
          function goTo(stepNumber) {
            const index = indexOfStep.get(stepNumber);
            if (index === undefined) return;
            select(stepNumber);
            if (rows[index].hidden) { searchBox.value = ""; originBox.value = ""; applyFilter(); }
            rows[index].scrollIntoView({ block: "center" });
            history.replaceState(null, "", "#step=" + stepNumber);
          }

          function goToGap(gap) {
            const after = steps.findIndex((step) => step.s > gap.last);
            renderUpTo(after < 0 ? steps.length : after + 1);
            document.getElementById("gap-" + gap.first).scrollIntoView({ block: "center" });
          }

          // The divergence bar: where the shown step is among the diverging steps, previous and next (buttons, and the
          // keys p and n), and the diverging steps counted by where they differ; choosing a path makes previous and
          // next walk that path's steps.
          const divergingSteps = Array.from(new Set(firstStepsOf(replay))).sort((a, b) => a - b);
          const divergenceBar = document.getElementById("divergences");
          const position = document.getElementById("divergence-position");
          const pathCounts = document.getElementById("divergence-paths");
          let walked = { steps: divergingSteps, path: null };
          function firstStepsOf(replay) {
            return replay ? replay.divergences.concat(replay.effectDivergences).map((divergence) => divergence.step) : [];
          }
          function showDivergencePosition(stepNumber) {
            if (divergingSteps.length === 0) return;
            const at = walked.steps.indexOf(stepNumber);
            const where = walked.path === null ? "" : " at " + walked.path;
            position.textContent = (at < 0 ? plural(walked.steps.length, "diverging step") + where
              : "diverging step " + (at + 1) + " of " + walked.steps.length + where + ": step " + stepNumber) +
              (walked.path === null ? "" : " (" + divergingSteps.length + " in all)");
            position.title = position.textContent;
          }
          function walk(direction) {
            const current = Number(detail.dataset.selectedStep || 0);
            const steps = walked.steps;
            let next;
            if (direction > 0) next = steps.find((step) => step > current);
            else for (let i = steps.length - 1; i >= 0 && next === undefined; i--) if (steps[i] < current) next = steps[i];
            if (next !== undefined) goTo(next);
          }
          function walkPath(entry) {
            walked = entry === null ? { steps: divergingSteps, path: null } : { steps: entry.steps, path: entry.path };
            pathCounts.open = false;
            goTo(walked.steps[0]);
          }
          function buildPathCounts() {
            const list = document.getElementById("divergence-path-list");
            if (list.childElementCount > 0) return;
            const entries = [{ path: null, steps: divergingSteps }].concat(replay.byPath.slice(0, 200));
            for (const entry of entries) {
              const item = element("li");
              const choice = element("button", "", entry.path === null ? "every diverging step" : entry.path);
              choice.title = choice.textContent;
              choice.addEventListener("click", () => walkPath(entry.path === null ? null : entry));
              item.append(element("span", "count", String(entry.steps.length)), choice);
              list.append(item);
            }
            if (replay.byPath.length > 200) list.append(element("li", "hint", "and " + plural(replay.byPath.length - 200, "more path")));
          }
          if (divergingSteps.length > 0) {
            divergenceBar.hidden = false;
            document.getElementById("previous-divergence").addEventListener("click", () => walk(-1));
            document.getElementById("next-divergence").addEventListener("click", () => walk(1));
            pathCounts.querySelector("summary").textContent = "by path (" + plural(replay.byPath.length, "path") + ")";
            pathCounts.addEventListener("toggle", buildPathCounts);
            document.addEventListener("keydown", (event) => {
              if (event.ctrlKey || event.metaKey || event.altKey || /^(INPUT|SELECT|TEXTAREA)$/.test(event.target.tagName)) return;
              if (event.key === "n") walk(1);
              else if (event.key === "p") walk(-1);
            });
            showDivergencePosition(0);
          }

          // The URL fragment: #search=TEXT&origin=app|effect&step=N.
          const fragment = new URLSearchParams(location.hash.slice(1));
          if (fragment.has("search")) searchBox.value = fragment.get("search");
          if (fragment.has("origin")) originBox.value = fragment.get("origin");
          renderUpTo(chunk);
          // The page's own timing, for measurements (docs/performance.md): milliseconds from navigation to the
          // first rows built, to the first frame after them, and to the last row built.
          document.body.dataset.firstRowsMs = performance.now().toFixed(0);
          requestAnimationFrame(() => { document.body.dataset.firstFrameMs = performance.now().toFixed(0); });
          const first = divergingSteps.length > 0 ? divergingSteps[0] : null;
          const start = fragment.has("step") ? Number(fragment.get("step")) : first;
          if (start !== null && indexOfStep.has(start)) {
            select(start);
            rows[indexOfStep.get(start)].scrollIntoView({ block: "center" });
          }
          if (rows.length < steps.length) requestAnimationFrame(renderRest);
          else finished();
        })();
        """#
}
