/**
 * A reader document as ONE self-contained HTML file (`read --html FILE`), made to be shared: all of it is
 * rendered here to escaped HTML (no session data for a script to insert, so no client-side sink), the
 * agent's markdown through markdown-it with raw HTML off and only http/https/mailto links, one small
 * stylesheet and script of our own allowed by hash in a strict Content-Security-Policy (nothing else
 * may load or run: no CDN, font, image or request). The page switches views, folds thinking, jumps
 * prompt to prompt and finds text by toggling classes. Pure.
 */
import { createHash } from 'node:crypto';
import MarkdownIt from 'markdown-it';
import type { Block, ReaderDiff, ReaderDocument, ReaderOutput, ReaderView, ToolBlock } from './document.js';
import {
  cutOutput, describeToolStatus, DIFF_PREVIEW_LINES, diffsOf, formatClock, formatDay, HTML_REST_MAX_CHARS, isBlockShown, listMetaRows, NOTICE_LABELS, moreLines, neutralizeControls, titleOf,
} from './export-format.js';

export interface HtmlOptions {
  /** The view the page opens in (the page switches among all three). */
  view: ReaderView;
  /** Thinking shown when the page opens (a toggle in the page). */
  thinking?: boolean;
  /** IANA time zone of the times shown (the machine's when unset). */
  timeZone?: string;
}

export { HTML_REST_MAX_CHARS };

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text as HTML text or attribute value; controls and reordering characters made visible first. */
export function escapeHtml(text: string): string {
  return neutralizeControls(text).replace(/[&<>"']/g, (ch) => ESCAPES[ch]!);
}

const SAFE_LINK = /^(?:https?:|mailto:)/i;

let markdown: MarkdownIt | undefined;

/**
 * The one markdown-it of the page: raw HTML off (tags stay text), no linkify, no typographer; links and
 * images only to http, https and mailto (anything else stays text); images drawn as links (an image
 * would be a request); table alignment as a class (a style attribute would break the CSP).
 */
function getMarkdown(): MarkdownIt {
  if (markdown) return markdown;
  const md = new MarkdownIt({ html: false, linkify: false, typographer: false });
  md.validateLink = (url: string) => SAFE_LINK.test(url.trim());
  md.renderer.rules.image = (tokens, idx) => {
    const token = tokens[idx]!;
    const src = token.attrGet('src') ?? '';
    const alt = token.content || 'image';
    return `<a class="img" href="${escapeHtml(src)}" rel="noopener noreferrer nofollow">[image: ${escapeHtml(alt)}]</a>`;
  };
  md.core.ruler.push('reader_safe_attrs', (state) => {
    for (const token of state.tokens) {
      for (const child of [token, ...(token.children ?? [])]) {
        const style = child.attrGet('style');
        if (style !== null) {
          const align = /text-align:(left|right|center)/.exec(style)?.[1];
          child.attrs = (child.attrs ?? []).filter(([name]) => name !== 'style');
          if (align) child.attrJoin('class', `al-${align}`);
        }
        if (child.type === 'link_open') child.attrSet('rel', 'noopener noreferrer nofollow');
      }
    }
  });
  markdown = md;
  return md;
}

/** The agent's markdown as HTML (text neutralized first; markdown-it escapes everything it does not render). */
export function renderAgentMarkdown(text: string): string {
  return getMarkdown().render(neutralizeControls(text));
}

interface RenderState {
  opts: HtmlOptions;
  prompts: number;
  lastDay?: string;
  out: string[];
}

function timeTag(ts: number | undefined, state: RenderState): string {
  if (ts === undefined || !Number.isFinite(ts)) return '';
  const day = formatDay(ts, state.opts.timeZone);
  const clock = formatClock(ts, state.opts.timeZone);
  const label = day === state.lastDay ? clock : `${day} ${clock}`;
  state.lastDay = day;
  return ` <time datetime="${new Date(ts).toISOString()}">${label}</time>`;
}

function anchorLink(anchor: string): string {
  return `<a class="a" href="#${escapeHtml(anchor)}" title="Link to this message">#</a>`;
}

/** Classes that tell the page's stylesheet which views show a block (computed here, one rule per view). */
function viewClasses(block: Block): string {
  const hidden: string[] = [];
  for (const view of ['focused', 'default'] as const) {
    if (!isBlockShown(block, view, false)) hidden.push(`no-${view[0]}`);
  }
  return hidden.length ? ` ${hidden.join(' ')}` : '';
}

function openBlock(block: Block, kind: string, state: RenderState, extra = ''): void {
  state.out.push(`<div class="b ${kind}${viewClasses(block)}${extra}" id="${escapeHtml(block.anchor)}">`);
}

function renderLines(lines: string[]): string {
  return lines.map(escapeHtml).join('\n');
}

/** The preview of an output, and the rest one click away when it is small, else a line saying how much was left out. */
function renderOutput(output: ReaderOutput, state: RenderState): void {
  const preview = cutOutput(output, 'default');
  if (preview.lines.length) state.out.push(`<pre class="out" dir="auto">${renderLines(preview.lines)}</pre>`);
  if (!preview.more) return;
  const whole = cutOutput(output, 'full');
  const rest = whole.lines.slice(preview.lines.length);
  const restChars = output.text.length - preview.lines.join('\n').length;
  if (!output.cut && rest.length > 0 && restChars <= HTML_REST_MAX_CHARS) {
    state.out.push(`<details class="rest"><summary>… ${moreLines(preview.more)}</summary><pre class="out" dir="auto">${renderLines(rest)}</pre></details>`);
  } else {
    state.out.push(`<p class="more">… ${moreLines(preview.more)} (${output.totalChars.toLocaleString('en-US')} characters in all; not kept in this file)</p>`);
  }
}

function renderDiffLines(lines: string[]): string {
  return lines
    .map((line) => {
      const cls = line.startsWith('@@') ? 'hk' : line.startsWith('+') ? 'ad' : line.startsWith('-') ? 'dl' : '';
      return cls ? `<span class="${cls}">${escapeHtml(line)}</span>` : escapeHtml(line);
    })
    .join('\n');
}

function renderDiff(diff: ReaderDiff, state: RenderState, named: boolean): void {
  if (named) state.out.push(`<div class="call df"><code dir="auto">${escapeHtml(diff.file)}</code> <span class="st"><span class="ad">+${diff.added}</span> <span class="dl">−${diff.removed}</span>${diff.created ? ' new file' : ''}</span></div>`);
  if (diff.unified === '') return;
  const lines = diff.unified.replace(/\n$/, '').split('\n');
  state.out.push(`<pre class="diff" dir="auto">${renderDiffLines(lines.slice(0, DIFF_PREVIEW_LINES))}</pre>`);
  if (lines.length <= DIFF_PREVIEW_LINES) return;
  const rest = lines.slice(DIFF_PREVIEW_LINES);
  if (diff.unified.length <= HTML_REST_MAX_CHARS * 4) {
    state.out.push(`<details class="rest"><summary>… ${moreLines(rest.length)} of the diff</summary><pre class="diff" dir="auto">${renderDiffLines(rest)}</pre></details>`);
  } else state.out.push(`<p class="more">… ${moreLines(rest.length)} of the diff (not kept in this file)</p>`);
}

function renderTool(block: ToolBlock, state: RenderState, depth: number): void {
  const err = block.status === 'error' || (block.exitCode !== undefined && block.exitCode !== 0);
  openBlock(block, 'tool', state, err ? ' err' : '');
  const status = describeToolStatus(block);
  const diffs = diffsOf(block);
  const one = diffs.length === 1 ? diffs[0]! : undefined;
  const counts = (added: number, removed: number, created?: boolean) => ` <span class="st"><span class="ad">+${added}</span> <span class="dl">−${removed}</span>${created ? ' new file' : ''}</span>`;
  let what = one ? `<code dir="auto">${escapeHtml(one.file)}</code>${counts(one.added, one.removed, one.created)}` : block.summary ? `<code dir="auto">${escapeHtml(block.summary)}</code>` : '';
  if (diffs.length > 1) what += ` <span class="st">${diffs.length} files</span>${counts(diffs.reduce((n, d) => n + d.added, 0), diffs.reduce((n, d) => n + d.removed, 0))}`;
  state.out.push(`<div class="call"><span class="tn">${escapeHtml(block.name) || 'tool'}</span> ${what}${status ? ` <span class="st">${escapeHtml(status)}</span>` : ''} ${anchorLink(block.anchor)}</div>`);
  for (const diff of diffs) renderDiff(diff, state, diffs.length > 1);
  if (diffs.length === 0 && block.output && block.output.text !== '') renderOutput(block.output, state);
  if (block.children && block.children.length) {
    const calls = block.children.filter((b) => b.kind === 'tool').length;
    const label = `Sub-agent${block.childLabel ? `: <span dir="auto">${escapeHtml(block.childLabel)}</span>` : ''} · ${calls} tool ${calls === 1 ? 'call' : 'calls'}`;
    // Folded, as in the terminal (the full view opens every level).
    state.out.push(`<details class="sub"><summary>${label}</summary>`);
    renderBlocks(block.children, state, depth + 1);
    state.out.push('</details>');
  }
  state.out.push('</div>');
}

function renderBlock(block: Block, state: RenderState, depth: number): void {
  switch (block.kind) {
    case 'prompt': {
      const mark = depth > 0 ? 'Its instructions' : block.command ? 'command' : `› ${block.turn}/${state.prompts}`;
      openBlock(block, depth > 0 ? 'prompt inner' : 'prompt', state, block.command ? ' cmd' : '');
      state.out.push(`<div class="h"><a class="mark" href="#${escapeHtml(block.anchor)}">${mark}</a>${timeTag(block.ts, state)}</div>`);
      state.out.push(`<div class="pt" dir="auto">${escapeHtml(block.text)}</div></div>`);
      return;
    }
    case 'answer':
      openBlock(block, block.final ? 'answer final' : 'answer', state);
      state.out.push(`<div class="md" dir="auto">${renderAgentMarkdown(block.text)}</div></div>`);
      return;
    case 'thinking':
      openBlock(block, 'think', state);
      state.out.push(`<div class="fold">Thinking · ${block.chars.toLocaleString('en-US')} characters</div><div class="tt" dir="auto">${escapeHtml(block.text)}</div></div>`);
      return;
    case 'tool':
      renderTool(block, state, depth);
      return;
    case 'compaction': {
      openBlock(block, 'compact', state);
      const what = block.source === 'branch' ? 'Branch summary' : 'Compacted here';
      state.out.push(`<div class="h">${what}${timeTag(block.ts, state)} ${anchorLink(block.anchor)}</div><p class="note">The history above stays; the agent went on from this summary:</p>`);
      state.out.push(`<div class="md" dir="auto">${renderAgentMarkdown(block.summary)}</div></div>`);
      return;
    }
    case 'branch':
      openBlock(block, 'branch', state);
      state.out.push(`<h2>Branch ${block.index} · <span dir="auto">${escapeHtml(block.label)}</span></h2></div>`);
      return;
    case 'notice':
      openBlock(block, `notice ${block.tone}`, state);
      state.out.push(`<span class="nl">${NOTICE_LABELS[block.tone]}</span> <span dir="auto">${escapeHtml(block.text)}</span></div>`);
      return;
    default:
      block satisfies never;
  }
}

function renderBlocks(blocks: Block[], state: RenderState, depth: number): void {
  for (const block of blocks) renderBlock(block, state, depth);
}

// The page's stylesheet: views by body class (`v-focused`, `v-default`, `v-full`), thinking by `th`.
const CSS = `:root{color-scheme:light dark;--fg:#1f2328;--bg:#fff;--mute:#656d76;--line:#d0d7de;--soft:#f6f8fa;--acc:#0969da;--add:#1a7f37;--del:#cf222e;--mark:#fff8c5}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--bg:#0d1117;--mute:#8d96a0;--line:#30363d;--soft:#161b22;--acc:#4493f8;--add:#3fb950;--del:#f85149;--mark:#5a4a00}}
*{box-sizing:border-box}body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:var(--bg)}
main,header.top{max-width:60rem;margin:0 auto;padding:0 1rem}
code,pre,.pt.cmd{font:13px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre{margin:.3rem 0;padding:.5rem .7rem;background:var(--soft);border-radius:6px;white-space:pre-wrap;overflow-wrap:anywhere}
[dir=auto],pre,code,td{unicode-bidi:isolate}
h1{font-size:1.5rem;margin:1rem 0 .5rem;overflow-wrap:anywhere}
table.meta{border-collapse:collapse;font-size:13px;margin-bottom:1rem}table.meta th{text-align:left;color:var(--mute);font-weight:500;padding:.1rem 1rem .1rem 0;vertical-align:top}table.meta td{overflow-wrap:anywhere}
.bar{position:sticky;top:0;z-index:2;display:none;flex-wrap:wrap;gap:.4rem;align-items:center;padding:.4rem 1rem;background:var(--bg);border-bottom:1px solid var(--line)}
.js .bar{display:flex}.bar button{font:inherit;font-size:13px;padding:.15rem .55rem;border:1px solid var(--line);border-radius:6px;background:var(--soft);color:var(--fg);cursor:pointer}
.bar button[aria-pressed=true]{background:var(--acc);border-color:var(--acc);color:#fff}.bar input{font:inherit;font-size:13px;padding:.15rem .4rem;width:13rem;border:1px solid var(--line);border-radius:6px;background:var(--bg);color:var(--fg)}
.bar .sp{flex:1}.bar output{font-size:13px;color:var(--mute);min-width:4rem}
.b{margin:.5rem 0;scroll-margin-top:3.5rem;overflow-wrap:anywhere}.b:target,.b.tg{outline:2px solid var(--acc);outline-offset:3px;border-radius:4px}
.prompt{margin-top:1.6rem;padding:.5rem .8rem;border-left:4px solid var(--acc);background:var(--soft);border-radius:0 6px 6px 0}
.prompt .h{font-size:13px;color:var(--mute)}.prompt .mark{font-weight:700;color:var(--acc);text-decoration:none;margin-right:.5rem}
.pt{white-space:pre-wrap}.prompt.inner{margin-top:.5rem;border-left-color:var(--mute)}
.md>:first-child{margin-top:0}.md>:last-child{margin-bottom:0}.md table{border-collapse:collapse}.md td,.md th{border:1px solid var(--line);padding:.2rem .5rem}
.al-right{text-align:right}.al-center{text-align:center}.al-left{text-align:left}
.answer:not(.final){color:var(--mute)}
.think .fold{font-size:13px;color:var(--mute);font-style:italic}.think .tt{display:none;white-space:pre-wrap;color:var(--mute);border-left:2px solid var(--line);padding-left:.7rem}
.th .think .tt{display:block}
.tool .call{font-size:13px}.tool .tn{font-weight:600}.tool .st{color:var(--mute)}.tool.err .st{color:var(--del)}
.tool .call code{background:var(--soft);padding:0 .25rem;border-radius:4px}
.a{color:var(--mute);text-decoration:none;font-size:12px;visibility:hidden}.b:hover>.call .a,.b:hover>.h .a{visibility:visible}
.more,details.rest>summary{font-size:12px;color:var(--mute);margin:.1rem 0 .4rem;cursor:pointer}
.diff .ad,.st .ad{color:var(--add)}.diff .dl,.st .dl{color:var(--del)}.diff .hk{color:var(--mute)}
details.sub{margin:.3rem 0 .3rem .8rem;padding-left:.8rem;border-left:2px solid var(--line)}details.sub>summary{font-size:13px;color:var(--mute);cursor:pointer}
.compact{border:1px dashed var(--line);border-radius:6px;padding:.5rem .8rem}.compact .h{font-weight:600}.compact .note{font-size:13px;color:var(--mute);margin:.2rem 0}
.branch h2{font-size:1.1rem;border-top:2px solid var(--line);padding-top:.8rem;margin-top:2rem}
.notice{font-size:13px}.notice .nl{font-weight:600}.notice.error .nl{color:var(--del)}
.v-focused .no-f,.v-default .no-d{display:none}.v-focused.th .think{display:block}
.v-full .out,.v-full .diff{max-height:none}
::highlight(find){background:var(--mark);color:inherit}::highlight(find-now){background:orange;color:#000}
footer{max-width:60rem;margin:2rem auto;padding:0 1rem;font-size:12px;color:var(--mute)}
@media print{.bar,.a{display:none!important}.b{display:block!important}.prompt{break-after:avoid}pre{break-inside:auto}body{font-size:12px}}`;

// The page's script: views, thinking, prompt jumps (j/k), deep links to hidden blocks, the find box
// (CSS Custom Highlights, no DOM rewriting; a block outline where that API is missing), print expanded.
const SCRIPT = `(function(){"use strict";
var d=document,b=d.body,main=d.getElementById("doc"),views=["focused","default","full"],cur="default";
b.classList.add("js");
function $$(s,r){return Array.prototype.slice.call((r||d).querySelectorAll(s))}
function shown(el){return el.checkVisibility?el.checkVisibility():!!(el.offsetParent||el.getClientRects().length)}
function setView(v){cur=v;views.forEach(function(x){b.classList.toggle("v-"+x,x===v)});
$$("[data-view]").forEach(function(e){e.setAttribute("aria-pressed",String(e.getAttribute("data-view")===v))});
$$("details.rest,details.sub").forEach(function(e){e.open=v==="full"});b.setAttribute("data-view",v);find()}
function setThinking(on){b.classList.toggle("th",on);var t=d.getElementById("tgl-th");if(t)t.setAttribute("aria-pressed",String(on));find()}
function prompts(){return $$(".b.prompt:not(.inner):not(.cmd)").filter(shown)}
function jump(dir){var ps=prompts(),t=null;if(!ps.length)return;var h=parseFloat(getComputedStyle(ps[0]).scrollMarginTop)||0;
if(dir>0){for(var i=0;i<ps.length;i++){if(ps[i].getBoundingClientRect().top>h+2){t=ps[i];break}}}
else{for(var j=ps.length-1;j>=0;j--){if(ps[j].getBoundingClientRect().top<h-2){t=ps[j];break}}}
if(t){t.scrollIntoView({block:"start"});mark(t)}}
var marked=null;function mark(el){if(marked)marked.classList.remove("tg");marked=el;if(el)el.classList.add("tg")}
function openTo(el){for(var p=el;p&&p!==main;p=p.parentElement){if(p.tagName==="DETAILS")p.open=true}}
function go(id){var el=id&&d.getElementById(id);if(!el||!main.contains(el))return;openTo(el);
if(!shown(el)){var more=views.slice(views.indexOf(cur)+1);for(var i=0;i<more.length;i++){setView(more[i]);openTo(el);if(shown(el))break}}
if(el.classList.contains("think")&&!b.classList.contains("th"))setThinking(true);
openTo(el);el.scrollIntoView({block:"start"});mark(el)}
function fromHash(){var h=location.hash.slice(1);try{h=decodeURIComponent(h)}catch(e){}go(h)}
var box=d.getElementById("find"),out=d.getElementById("found"),hits=[],at=-1,lastQ="";
var hl=typeof Highlight==="function"&&typeof CSS!=="undefined"&&CSS.highlights;
function clear(){hits=[];at=-1;if(hl){CSS.highlights.delete("find");CSS.highlights.delete("find-now")}
$$(".hit").forEach(function(e){e.classList.remove("hit")})}
function find(){if(!box)return;var q=box.value.trim().toLowerCase();clear();lastQ=q;
if(!q){out.textContent="";return}
var w=d.createTreeWalker(main,NodeFilter.SHOW_TEXT),n,vis=new Map();
while((n=w.nextNode())){var p=n.parentElement,ok=vis.get(p);
if(ok===undefined){ok=shown(p)||!!(p.closest("details")&&shown(p.closest("details")));vis.set(p,ok)}
if(!ok)continue;var s=n.data.toLowerCase(),i=s.indexOf(q);
while(i!==-1){var r=d.createRange();r.setStart(n,i);r.setEnd(n,i+q.length);hits.push(r);i=s.indexOf(q,i+q.length)}}
if(hl)CSS.highlights.set("find",new Highlight(...hits));
out.textContent=hits.length?"":"no match";if(hits.length)step(1)}
function step(dir){if(!hits.length)return;at=(at+dir+hits.length)%hits.length;var r=hits[at],el=r.startContainer.parentElement;
openTo(el);if(hl)CSS.highlights.set("find-now",new Highlight(r));else{$$(".hit").forEach(function(e){e.classList.remove("hit")});el.classList.add("hit")}
el.scrollIntoView({block:"center"});out.textContent=(at+1)+"/"+hits.length}
var timer=0;if(box){box.addEventListener("input",function(){clearTimeout(timer);timer=setTimeout(function(){find()},120)});
box.addEventListener("keydown",function(e){if(e.key==="Enter"){e.preventDefault();if(box.value.trim().toLowerCase()!==lastQ)find();else step(e.shiftKey?-1:1)}
else if(e.key==="Escape"){box.blur()}});box.addEventListener("search",function(){find()})}
$$("[data-view]").forEach(function(e){e.addEventListener("click",function(){setView(e.getAttribute("data-view"))})});
var th=d.getElementById("tgl-th");if(th)th.addEventListener("click",function(){setThinking(!b.classList.contains("th"))});
var pv=d.getElementById("prev"),nx=d.getElementById("next");if(pv)pv.addEventListener("click",function(){jump(-1)});if(nx)nx.addEventListener("click",function(){jump(1)});
d.addEventListener("keydown",function(e){if(e.ctrlKey||e.metaKey||e.altKey)return;var t=e.target;if(t&&(t.tagName==="INPUT"||t.tagName==="TEXTAREA"))return;
var k=e.key;if(k==="j"||k==="n"){jump(1)}else if(k==="k"||k==="p"){jump(-1)}else if(k==="/"){e.preventDefault();box&&box.focus()}
else if(k==="1"||k==="2"||k==="3"){setView(views[+k-1])}else if(k==="t"){setThinking(!b.classList.contains("th"))}else return;});
var printed=[];addEventListener("beforeprint",function(){printed=$$("details:not([open])");printed.forEach(function(e){e.open=true})});
addEventListener("afterprint",function(){printed.forEach(function(e){e.open=false});printed=[]});
addEventListener("hashchange",fromHash);
views.forEach(function(v){if(b.classList.contains("v-"+v))cur=v});setView(cur);setThinking(b.classList.contains("th"));
if(location.hash)fromHash();
})();`;

function sha256(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

let policy: string | undefined;

/** default-src 'none': only our own stylesheet and script, by hash; no image, font, frame, connection or form. */
export function contentSecurityPolicy(): string {
  policy ??= `default-src 'none'; style-src ${sha256(CSS)}; script-src ${sha256(SCRIPT)}; base-uri 'none'; form-action 'none'`;
  return policy;
}

function renderHeader(doc: ReaderDocument, opts: HtmlOptions): string {
  const rows = listMetaRows(doc.meta, opts.timeZone)
    .map((row) => `<tr><th>${row.label}</th><td dir="auto">${row.code ? `<code>${escapeHtml(row.value)}</code>` : escapeHtml(row.value)}</td></tr>`)
    .join('');
  const subtitle = doc.meta.title && doc.meta.name && doc.meta.title !== doc.meta.name ? `<p dir="auto">${escapeHtml(doc.meta.title)}</p>` : '';
  return `<header class="top"><h1 dir="auto">${escapeHtml(titleOf(doc.meta))}</h1>${subtitle}<table class="meta">${rows}</table></header>`;
}

const BAR = `<nav class="bar" aria-label="Reader">
<button type="button" data-view="focused" title="Prompts and final answers (1)">Focused</button><button type="button" data-view="default" title="Plus tool calls and previews (2)">Default</button><button type="button" data-view="full" title="Every output this file keeps (3)">Full</button>
<button type="button" id="tgl-th" title="Thinking (t)">Thinking</button>
<button type="button" id="prev" title="Previous prompt (k)">↑ Prompt</button><button type="button" id="next" title="Next prompt (j)">↓ Prompt</button>
<span class="sp"></span><input id="find" type="search" placeholder="Find (/)" aria-label="Find in this session" autocomplete="off"><output id="found" aria-live="polite"></output>
</nav>`;

/** A document as one HTML page, opening in `opts.view`. Pure. */
export function renderHtml(doc: ReaderDocument, opts: HtmlOptions): string {
  const state: RenderState = { opts, prompts: doc.meta.prompts, out: [] };
  renderBlocks(doc.blocks, state, 0);
  const bodyClass = `v-${opts.view}${opts.thinking ? ' th' : ''}`;
  return [
    '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy()}">`,
    '<meta name="referrer" content="no-referrer"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="generator" content="recapwrap read --html">',
    `<title>${escapeHtml(titleOf(doc.meta))} · ${escapeHtml(doc.meta.agent)} session</title>`,
    `<style>${CSS}</style></head>`,
    `<body class="${bodyClass}">`,
    renderHeader(doc, opts),
    BAR,
    '<main id="doc">',
    state.out.join('\n'),
    '</main>',
    '<footer>Written by recapwrap read --html: one file, no request leaves it; secrets masked; tool output cut to a preview.</footer>',
    `<script>${SCRIPT}</script>`,
    '</body></html>\n',
  ].join('\n');
}
