#!/usr/bin/env python3
"""Writes the seeds of the structure-aware fuzz targets (fuzz/seeds/pdf_objects and
fuzz/seeds/packages): small valid PDFs and DOCX, ODT and EPUB packages in the forms those
targets read (see fuzz/fuzz_targets/shapes.rs), made of sentences written for them.

    scripts/make-fuzz-seeds.py        (rewrites the seed files; run from anywhere)
"""
import pathlib


ROOT = pathlib.Path(__file__).resolve().parent.parent
SEEDS = ROOT / "fuzz" / "seeds"

SEP = b"\nendobj\n"


def stream(dictionary: bytes, data: bytes) -> bytes:
    # The target sets /Length itself.
    return b"<< " + dictionary + b" >>stream\n" + data + b"\nendstream"


HELLO = b"BT /F1 12 Tf 72 720 Td (The harbour froze early that winter.) Tj 0 -14 Td (Boats stayed in for weeks.) Tj ET"
CATALOG = b"<< /Type /Catalog /Pages 2 0 R >>"
HELVETICA = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"
TO_UNICODE = b"""/CIDInit /ProcSet findresource begin 12 dict begin begincmap
/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def
/CMapName /Adobe-Identity-UCS def /CMapType 2 def
1 begincodespacerange <0000> <FFFF> endcodespacerange
3 beginbfchar <0003> <0020> <0011> <002E> <0024> <0041> endbfchar
2 beginbfrange <0044> <005D> <0061> <0030> <0031> [<0066 0066> <0066 0069>] endbfrange
endcmap CMapName currentdict /CMap defineresource pop end end"""


def one_page(page_entries: bytes, *objects: bytes) -> list:
    """A catalog, a page tree of one page with `page_entries`, and `objects` from 4 on."""
    return [
        CATALOG,
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 /MediaBox [0 0 612 792] >>",
        b"<< /Type /Page /Parent 2 0 R /Contents 4 0 R " + page_entries + b" >>",
        *objects,
    ]


def pdf_seeds() -> dict:
    seeds = {}
    # One page, its resources and media box on the page (the other one-page seeds inherit
    # their media box from the page tree, see one_page).
    seeds["hello"] = (0, [
        CATALOG,
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
        stream(b"", HELLO),
        HELVETICA,
    ])
    # Two pages under an intermediate node, inheriting resources and media box; two content
    # streams on one page; graphics state operators.
    seeds["page-tree"] = (1, [
        CATALOG,
        b"<< /Type /Pages /Kids [3 0 R] /Count 2 /MediaBox [0 0 595 842] /Resources << /Font << /F1 7 0 R >> >> >>",
        b"<< /Type /Pages /Parent 2 0 R /Kids [4 0 R 5 0 R] /Count 2 >>",
        b"<< /Type /Page /Parent 3 0 R /Contents [6 0 R 8 0 R] >>",
        b"<< /Type /Page /Parent 3 0 R /Contents 9 0 R /Rotate 90 >>",
        stream(b"", b"q 1 0 0 1 0 0 cm 0.5 g BT /F1 18 Tf 72 760 Td (A heading) Tj ET Q"),
        HELVETICA,
        stream(b"", b"q BT /F1 11 Tf 14 TL 72 700 Td (The first line of a paragraph) Tj T* (and its second line.) Tj ET Q"),
        stream(b"", b"BT /F1 11 Tf 72 700 Td [(Kerned) -250 (words,) 120 (here.)] TJ 2 Tz (A line) ' ET"),
    ])
    # A composite font with a ToUnicode map (bfchar and bfrange, an array destination).
    seeds["cid-font"] = (0, one_page(
        b"/Resources << /Font << /F2 5 0 R >> >>",
        stream(b"", b"BT /F2 12 Tf 72 720 Td <00240044004500460003004400300031> Tj ET"),
        b"<< /Type /Font /Subtype /Type0 /BaseFont /Sample /Encoding /Identity-H /DescendantFonts [6 0 R] /ToUnicode 8 0 R >>",
        b"<< /Type /Font /Subtype /CIDFontType2 /BaseFont /Sample /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor 7 0 R /DW 500 /W [3 [250] 36 [600 610]] >>",
        b"<< /Type /FontDescriptor /FontName /Sample /Flags 32 /FontBBox [0 0 1000 1000] /ItalicAngle 0 /Ascent 800 /Descent -200 /CapHeight 700 /StemV 80 >>",
        stream(b"", TO_UNICODE),
    ))
    # A simple font with its own ToUnicode map and differences.
    seeds["simple-font-map"] = (1, one_page(
        b"/Resources << /Font << /F1 5 0 R >> >>",
        stream(b"", b"BT /F1 12 Tf 72 720 Td (Harbour) Tj ET"),
        b"<< /Type /Font /Subtype /TrueType /BaseFont /Sample /FirstChar 32 /LastChar 126 /Encoding << /Type /Encoding /BaseEncoding /WinAnsiEncoding /Differences [65 /A /B /C] >> /ToUnicode 6 0 R >>",
        stream(b"", b"1 begincodespacerange <00> <FF> endcodespacerange 1 beginbfrange <20> <7E> <0020> endbfrange"),
    ))
    # A form XObject painting text, painted twice, inside saved states.
    seeds["form"] = (0, one_page(
        b"/Resources << /XObject << /Fm 5 0 R >> /Font << /F1 6 0 R >> >>",
        stream(b"", b"q 1 0 0 1 0 0 cm /Fm Do Q q 1 0 0 1 0 -100 cm /Fm Do Q"),
        stream(b"/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /Font << /F1 6 0 R >> >>", HELLO),
        HELVETICA,
    ))
    # Objects packed in an object stream.
    seeds["object-stream"] = (0, one_page(
        b"/Resources << /Font << /F1 6 0 R >> >>",
        stream(b"", HELLO),
        stream(b"/Type /ObjStm /N 1 /First 4", b"6 0 " + HELVETICA),
    ))
    return seeds


def write_pdf_seeds() -> None:
    folder = SEEDS / "pdf_objects"
    folder.mkdir(parents=True, exist_ok=True)
    for name, (selector, objects) in pdf_seeds().items():
        (folder / name).write_bytes(bytes([selector]) + SEP.join(objects))


W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
R = 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"'


def docx() -> list:
    document = f"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document {W} {R}><w:body>
<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>The winter harbour</w:t></w:r></w:p>
<w:p><w:r><w:t xml:space="preserve">The harbour froze early that winter. </w:t></w:r><w:r><w:rPr><w:b/></w:rPr><w:t>Boats stayed in</w:t></w:r><w:r><w:footnoteReference w:id="1"/></w:r><w:r><w:t> for weeks.</w:t></w:r></w:p>
<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr></w:pPr><w:r><w:t>Nets were mended.</w:t></w:r></w:p>
<w:tbl><w:tr><w:tc><w:p><w:r><w:t>Week</w:t></w:r></w:p></w:tc><w:tc><w:p><w:r><w:t>Catch</w:t></w:r></w:p></w:tc></w:tr></w:tbl>
<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> PAGE </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>3</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r><w:del><w:r><w:delText>Gone.</w:delText></w:r></w:del></w:p>
<w:sectPr><w:headerReference w:type="default" r:id="rId3"/></w:sectPr>
</w:body></w:document>"""
    return [
        ("[Content_Types].xml", '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>'),
        ("_rels/.rels", '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>'),
        ("word/_rels/document.xml.rels", '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/footnotes" Target="footnotes.xml"/><Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/header" Target="header1.xml"/></Relationships>'),
        ("word/document.xml", document),
        ("word/styles.xml", f'<?xml version="1.0"?><w:styles {W}><w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:pPr><w:outlineLvl w:val="0"/></w:pPr></w:style><w:style w:type="character" w:styleId="Hidden"><w:rPr><w:vanish/></w:rPr></w:style></w:styles>'),
        ("word/footnotes.xml", f'<?xml version="1.0"?><w:footnotes {W}><w:footnote w:id="1"><w:p><w:r><w:t>A note about the ice.</w:t></w:r></w:p></w:footnote></w:footnotes>'),
        ("word/header1.xml", f'<?xml version="1.0"?><w:hdr {W}><w:p><w:r><w:t>Harbour log</w:t></w:r></w:p></w:hdr>'),
    ]


def odt() -> list:
    ns = ('xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
          'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
          'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
          'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"')
    content = f"""<?xml version="1.0" encoding="UTF-8"?>
<office:document-content {ns}><office:body><office:text>
<text:h text:outline-level="1">The winter harbour</text:h>
<text:p>The harbour froze early that winter.<text:note text:note-class="footnote"><text:note-body><text:p>A note about the ice.</text:p></text:note-body></text:note> Boats stayed<text:s/>in for weeks.</text:p>
<text:list><text:list-item><text:p>Nets were mended.</text:p></text:list-item></text:list>
<table:table><table:table-row><table:table-cell><text:p>Week</text:p></table:table-cell><table:table-cell><text:p>Catch</text:p></table:table-cell></table:table-row></table:table>
<text:p text:style-name="Hidden">Not shown.</text:p><text:tracked-changes><text:changed-region><text:deletion><text:p>Gone.</text:p></text:deletion></text:changed-region></text:tracked-changes>
</office:text></office:body></office:document-content>"""
    styles = f'<?xml version="1.0"?><office:document-styles {ns}><office:master-styles><style:master-page style:name="Standard"><style:header><text:p>Harbour log</text:p></style:header></style:master-page></office:master-styles></office:document-styles>'
    return [
        ("mimetype", "application/vnd.oasis.opendocument.text"),
        ("content.xml", content),
        ("styles.xml", styles),
        ("META-INF/manifest.xml", '<?xml version="1.0"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/></manifest:manifest>'),
    ]


def epub() -> list:
    xhtml = 'xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"'
    return [
        ("mimetype", "application/epub+zip"),
        ("META-INF/container.xml", '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>'),
        ("OEBPS/content.opf", '<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Harbour</dc:title></metadata><manifest><item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/><item id="c1" href="text/ch1.xhtml" media-type="application/xhtml+xml"/><item id="c2" href="text/ch2.xhtml" media-type="application/xhtml+xml"/><item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/></manifest><spine toc="ncx"><itemref idref="c1"/><itemref idref="c2"/></spine></package>'),
        ("OEBPS/nav.xhtml", f'<?xml version="1.0"?><html {xhtml}><head><title>Contents</title></head><body><nav epub:type="toc"><ol><li><a href="text/ch1.xhtml">Winter</a></li><li><a href="text/ch2.xhtml#s">Spring</a></li></ol></nav></body></html>'),
        ("OEBPS/toc.ncx", '<?xml version="1.0"?><!DOCTYPE ncx PUBLIC "-//NISO//DTD ncx 2005-1//EN" "http://www.daisy.org/z3986/2005/ncx-2005-1.dtd"><ncx xmlns="http://www.daisy.org/z3986/2005/ncx/"><navMap><navPoint id="p1"><navLabel><text>Winter</text></navLabel><content src="text/ch1.xhtml"/></navPoint></navMap></ncx>'),
        ("OEBPS/text/ch1.xhtml", f'<?xml version="1.0"?><html {xhtml}><head><title>Winter</title></head><body><h1>Winter</h1><p>The harbour froze early that winter.</p><p>Boats stayed in for weeks.<br/>Nets were mended.</p><aside epub:type="footnote"><p>A note about the ice.</p></aside></body></html>'),
        ("OEBPS/text/ch2.xhtml", f'<?xml version="1.0"?><html {xhtml}><head><title>Spring</title></head><body><section id="s"><p>In spring the ice broke.</p><table><tr><td>Week</td><td>Catch</td></tr></table></section></body></html>'),
    ]


def write_package_seeds() -> None:
    folder = SEEDS / "packages"
    folder.mkdir(parents=True, exist_ok=True)
    for name, selector, parts in [("docx", 0, docx()), ("odt", 1, odt()), ("epub", 2, epub())]:
        fields = []
        for part, content in parts:
            fields.append(part.encode())
            fields.append(content.encode())
        (folder / name).write_bytes(bytes([selector]) + b"\0".join(fields))


if __name__ == "__main__":
    write_pdf_seeds()
    write_package_seeds()
