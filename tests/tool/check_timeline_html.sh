#!/bin/sh
# rule: common.html-view-self-contained-draws-engine (`tests/tool/check_timeline_html.sh`: a `wddm demo` page in headless Chromium reports every kind of lane drawn, and a screenshot is taken; mutation-checked: a script error leaves `data-ready="0"` and fails it)
# CTest `tool.timeline_html` (docs/timeline.md): a `wddm demo` run recorded with WDDM_TRACE_HTML
# opens in headless Chromium (Debian's chromium, installed by scripts/setup.sh --test), whose
# script parses the embedded trace and draws every lane: the page's body then says so in its
# data attributes, and a screenshot is taken. Usage: check_timeline_html.sh WDDM_BINARY OUT_DIR
set -eu
wddm=$1
out=$2
command -v chromium >/dev/null || { echo "chromium is not installed: run scripts/setup.sh --test"; exit 1; }
mkdir -p "$out"
page=$out/demo_timeline.html
rm -f "$page" "$out/demo_timeline.png"
WDDM_TRACE_HTML=$page "$wddm" demo 30 >/dev/null
test -s "$page" || { echo "WDDM_TRACE_HTML wrote nothing"; exit 1; }
# No network, no external script: nothing in the page names another resource.
if grep -Eq '(src|href)="(https?:)?//' "$page"; then echo "the page loads something from outside"; exit 1; fi

chrome="chromium --headless --no-sandbox --disable-gpu --virtual-time-budget=5000"
body=$($chrome --dump-dom "file://$page" 2>/dev/null | grep -o '<body[^>]*>' || true)
echo "$body" | grep -q 'data-ready="1"' || { echo "the viewer did not finish: $body"; exit 1; }
attr() { echo "$body" | sed -n "s/.* data-$1=\"\([^\"]*\)\".*/\1/p"; }
lanes=$(attr lanes); spans=$(attr spans); names=$(attr lane-names)
test "${lanes:-0}" -ge 6 || { echo "only ${lanes:-0} lanes drawn: $names"; exit 1; }
test "${spans:-0}" -ge 30 || { echo "only ${spans:-0} spans drawn"; exit 1; }
for want in "GPU node 0 (engine)" "paging queue" "VidMm" "bytes used" "Context queues / context" "CPU threads / CPU thread"; do
  case $names in *"$want"*) ;; *) echo "no lane '$want' among: $names"; exit 1;; esac
done
$chrome --window-size=1400,900 --screenshot="$out/demo_timeline.png" "file://$page" >/dev/null 2>&1
test -s "$out/demo_timeline.png" || { echo "no screenshot"; exit 1; }
echo "timeline page: $lanes lanes, $spans spans; screenshot $out/demo_timeline.png"
