#!/usr/bin/env bash
# Regenerates the DOCX, ODT, PDF and EPUB fixtures in tests/fixtures/formats/ from two public texts
# of different shape:
# - guinea: the enwiki-2015 article assets/examples/guinea.md (CC BY-SA 3.0, see
#   assets/examples/NOTE.md): short paragraphs under `##` headings;
# - lincoln-1861: Lincoln's first inaugural address (public domain, us-speeches-pd, copied to
#   tests/fixtures/formats/lincoln-1861.txt): long paragraphs, no headings.
#
# Needs pandoc, LibreOffice Writer and qpdf (Debian: apt-get install -y pandoc
# libreoffice-writer-nogui qpdf) and msoffcrypto-tool (pip install msoffcrypto-tool). The fixtures
# are committed, so tests and CI do not need these.
#
# For each source NAME:
# - NAME.docx: pandoc from the text, with a reference document whose page style has a running
#   header ("Guinea: a simdoc test fixture", "Lincoln 1861: a simdoc test fixture") and a footer
#   holding the page number (a PAGE field);
# - NAME.odt and NAME.pdf: LibreOffice converts NAME.docx (so the PDF has the running header
#   and a page number on every page, and the ODT carries them as header/footer styles);
# - NAME.epub: pandoc from the text (EPUB 3; guinea: one chapter per `##` section);
# and for guinea only:
# - guinea-encrypted.pdf: qpdf encrypts guinea.pdf with a user password (AES-256);
# - guinea-encrypted.docx: msoffcrypto-tool encrypts guinea.docx as Office does with a password
#   (ECMA-376 agile encryption: an OLE compound file holding the encrypted package).
set -euo pipefail
cd "$(dirname "$0")/.."
# An optional argument writes them elsewhere (to compare a rerun with what is committed).
out=${1:-tests/fixtures/formats}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"

# A reference document with the running header $1 and a page-number footer, written to $2.
reference_doc() {
pandoc -o "$work/ref.docx" --print-default-data-file reference.docx
python3 - "$work/ref.docx" "$2" "$1" <<'PY'
import re, sys, zipfile
src, dst, running_header = sys.argv[1], sys.argv[2], sys.argv[3]
W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
header = f'<?xml version="1.0" encoding="UTF-8"?><w:hdr {W}><w:p><w:r><w:t>{running_header}</w:t></w:r></w:p></w:hdr>'
footer = (f'<?xml version="1.0" encoding="UTF-8"?><w:ftr {W}><w:p><w:pPr><w:jc w:val="center"/></w:pPr>'
          '<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> PAGE </w:instrText></w:r>'
          '<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>1</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p></w:ftr>')
R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'
with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, 'w', zipfile.ZIP_DEFLATED) as zout:
    for item in zin.infolist():
        data = zin.read(item.filename).decode('utf-8')
        if item.filename == 'word/document.xml':
            data = data.replace('<w:sectPr />', f'<w:sectPr><w:headerReference xmlns:r="{R}" w:type="default" r:id="rIdHdr"/>'
                                f'<w:footerReference xmlns:r="{R}" w:type="default" r:id="rIdFtr"/></w:sectPr>')
        elif item.filename == 'word/_rels/document.xml.rels':
            data = data.replace('</Relationships>',
                f'<Relationship Type="{R}/header" Id="rIdHdr" Target="header1.xml"/>'
                f'<Relationship Type="{R}/footer" Id="rIdFtr" Target="footer1.xml"/></Relationships>')
        elif item.filename == '[Content_Types].xml':
            data = data.replace('</Types>',
                '<Override PartName="/word/header1.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.header+xml"/>'
                '<Override PartName="/word/footer1.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.footer+xml"/></Types>')
        zout.writestr(item, data)
    zout.writestr('word/header1.xml', header)
    zout.writestr('word/footer1.xml', footer)
PY

}

# Source $1 (read as Markdown) to $2.docx, .odt, .pdf and .epub with running header $3; more
# pandoc options for the EPUB follow.
office_and_ebook() {
    local source=$1 name=$2 running_header=$3
    shift 3
    reference_doc "$running_header" "$work/reference-$name.docx"
    pandoc "$source" -f markdown -t docx --reference-doc="$work/reference-$name.docx" -o "$out/$name.docx"
    pandoc "$source" -f markdown -t epub3 "$@" -o "$out/$name.epub"
    soffice --headless --convert-to odt --outdir "$work" "$out/$name.docx" >>"$work/soffice.log"
    soffice --headless --convert-to pdf --outdir "$work" "$out/$name.docx" >>"$work/soffice.log"
    cp "$work/$name.odt" "$work/$name.pdf" "$out/"
}

office_and_ebook assets/examples/guinea.md guinea "Guinea: a simdoc test fixture" \
    --epub-chapter-level=2 --metadata title=Guinea
cp "${SIMDOC_DATA:-/work/shared/data}/reference/us-speeches-pd/inaugural/1861-Lincoln.txt" \
    "$out/lincoln-1861.txt"
office_and_ebook "$out/lincoln-1861.txt" lincoln-1861 "Lincoln 1861: a simdoc test fixture" \
    --metadata title="First Inaugural Address"
qpdf --encrypt secret owner 256 -- "$out/guinea.pdf" "$out/guinea-encrypted.pdf"
msoffcrypto-tool -e -p secret "$out/guinea.docx" "$out/guinea-encrypted.docx"
ls -l "$out"
