#!/usr/bin/env bash
# Regenerates the test documents in this folder from src/ with real Debian
# tools (see README.md). Needs: pandoc, groff, ghostscript (ps2pdf),
# libreoffice-{writer,calc,impress}-nogui (soffice). Not in install-deps:
# the generated files are committed; rerun only to change them.
#   tests/data/documents/make_documents.sh
set -euo pipefail
cd "$(dirname "$0")"
export SOURCE_DATE_EPOCH=1700000000   # reproducible pandoc output
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
lo() { soffice --headless -env:UserInstallation=file://"$tmp"/lo "$@" >/dev/null 2>&1; }

for doc in gpl_preamble apache_definitions; do
  for fmt in docx odt epub; do pandoc -s "src/$doc.md" -o "$doc.$fmt"; done
done
# RTF 1: pandoc (HYPERLINK fields, \uN escapes); RTF 2: LibreOffice from the
# odt (\info title/author/dates, \ansicpg1252 with \'hh escapes).
pandoc -s src/gpl_preamble.md -t rtf -o gpl_preamble.rtf
lo --convert-to rtf --outdir . apache_definitions.odt
for doc in mpl_slides artistic_slides; do pandoc -s "src/$doc.md" -o "$doc.pptx"; done

# PDF 1, 2: LibreOffice from the pandoc docx and odt (hyperlinks, titles).
lo --convert-to pdf --outdir . gpl_preamble.docx
lo --convert-to pdf --outdir . apache_definitions.odt
# PDF 2: groff -ms with pdfmark (title, author, a web link) through ghostscript.
groff -ms -mpdfmark -Tps src/bsd_notice.ms 2>/dev/null | ps2pdf - bsd_notice.pdf

# Spreadsheets from CSV, presentations converted from pandoc's pptx.
for doc in mpl_definitions licenses_table; do
  lo --infilter=CSV:44,34,76,1 --convert-to xlsx --outdir . "src/$doc.csv"
  lo --infilter=CSV:44,34,76,1 --convert-to ods --outdir . "src/$doc.csv"
done
for doc in mpl_slides artistic_slides; do lo --convert-to odp --outdir . "$doc.pptx"; done
# A PDF that needs a password (for the "encrypted" error), not in MANIFEST.
gs -q -dNOPAUSE -dBATCH -sDEVICE=pdfwrite -sOwnerPassword=owner -sUserPassword=reader -dEncryptionR=3 \
  -dKeyLength=128 -sOutputFile=locked_bsd_notice.pdf bsd_notice.pdf
ls -l *.pdf *.docx *.xlsx *.pptx *.odt *.ods *.odp *.epub *.rtf
