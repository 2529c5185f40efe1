import { expect } from "chai";
import { escapeHtml, html, jsonData, trusted } from "../../src/web/html";
import { safeNextPath } from "../../src/auth/safeNextPath";

describe("web/html: the pages' template", function () {
  it("escapes every interpolated string, in text and in quoted attributes", function () {
    const hostile = `<img src=x onerror="alert(1)">'&\``;
    const out = html`<p title="${hostile}">${hostile}</p>`.toString();
    expect(out).to.equal(
      '<p title="&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&#39;&amp;&#96;">&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&#39;&amp;&#96;</p>',
    );
  });

  it("keeps markup built by the template or marked trusted, flattens lists and drops null, undefined and false", function () {
    // Called through another name so that the formatter leaves the template's white space alone.
    const h = html;
    const inner = h`<b>${"<i>"}</b>`;
    const out = h`<div>${inner}${[h`<span>s</span>`, "a<b", 3]}${null}${undefined}${false}${trusted("<hr>")}</div>`;
    expect(out.toString()).to.equal("<div><b>&lt;i&gt;</b><span>s</span>a&lt;b3<hr></div>");
  });

  it("escapes the characters that matter and nothing else", function () {
    expect(escapeHtml("a & b < c > d \" e ' f ` g é ✓")).to.equal(
      "a &amp; b &lt; c &gt; d &quot; e &#39; f &#96; g é ✓",
    );
  });

  it("writes JSON for a data block that no value can close or comment out", function () {
    const out = jsonData({ s: "</script><!-- \u2028 &" }).toString();
    expect(out).not.to.match(/[<>&\u2028]/);
    expect(JSON.parse(out)).to.deep.equal({ s: "</script><!-- \u2028 &" });
  });

  it("sends the sign-in page's next only to a path on this site", function () {
    expect(safeNextPath("/app/compare?pools=a")).to.equal("/app/compare?pools=a");
    for (const bad of ["//evil.example", "https://evil.example", "/\\evil", "javascript:x", undefined])
      expect(safeNextPath(bad)).to.equal("/app/pools");
  });
});
