import { parseHtml } from './src/parse/index.ts';
const html = `<!DOCTYPE html><html lang="zh-CN"><head><meta charset="gb2312"><title>  测试
 页面 &amp; more </title>
<base href="http://example.com/dir/">
<link rel="canonical" href="/canon/index.html?x=1#f">
<meta name="robots" content="noarchive">
<style>p{color:red}</style><script>var a = "<a href='/no'>x</a>";</script></head>
<body><div class="nav"><a href="/">首页</a> | <a href="news/">新闻</a></div>
<p>这是一个关于显示器的段落，
包含<a href="http://other.test/x" rel="nofollow ugc">外部链接</a>和更多文字。</p>
<ul><li>First item with <a href="//cdn.test/a">protocol relative</a> link, and some more words after it to see the cut.</li>
<li><a href="#top">top</a> <a href="javascript:void(0)">js</a> <a href="mailto:x@y">mail</a></li></ul>
<div hidden><a href="/hidden">Hidden link</a> hidden text</div>
<noscript><a href="/ns">noscript link</a></noscript>
<template><a href="/tpl">tpl</a></template>
<a href="/img"><img src="x.png" alt="Picture alt"></a>
<table><tr><td>cell1</td><td>cell&nbsp;2 &lt;b&gt;</td></tr></table>
<p>Unclosed <b>bold <i>italic <p>next para 1 < 2 stray
</body></html>`;
console.log(JSON.stringify(parseHtml(html, 'http://example.com/page.html'), null, 1));
