//! PAN's XML for text alignment: the ground truth of a corpus pair and a detector's output, one
//! file per pair of documents, named `suspicious-documentXXXXX-source-documentYYYYY.xml`:
//!
//! ```xml
//! <document reference="suspicious-document00001.txt">
//! <feature name="plagiarism" obfuscation="none" this_offset="5" this_length="100"
//!          source_reference="source-document00001.txt" source_offset="7" source_length="98"/>
//! </document>
//! ```
//!
//! Detections use `name="detected-plagiarism"` and no obfuscation. Offsets and lengths count
//! characters (Unicode scalar values) of the documents' text, as PAN's corpora and scorer do.

use std::path::Path;

use super::corpus::CorpusPair;
use super::measures::Annotation;

/// The file name PAN gives the XML of a pair of documents.
pub fn pair_file_name(suspicious: &str, source: &str) -> String {
    let stem = |name: &str| name.strip_suffix(".txt").unwrap_or(name).to_string();
    format!("{}-{}.xml", stem(suspicious), stem(source))
}

/// Escapes text for an XML attribute value.
fn attribute(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => {}
            c => out.push(c),
        }
    }
    out
}

/// One `<feature>` element.
fn feature(name: &str, obfuscation: Option<&str>, a: &Annotation) -> String {
    let obfuscation = obfuscation
        .map(|o| format!(" obfuscation=\"{}\"", attribute(o)))
        .unwrap_or_default();
    format!(
        "<feature name=\"{name}\"{obfuscation} this_offset=\"{}\" this_length=\"{}\" source_reference=\"{}\" source_offset=\"{}\" source_length=\"{}\"/>\n",
        a.this.start,
        a.this.len(),
        attribute(&a.source),
        a.that.start,
        a.that.len()
    )
}

fn document(suspicious: &str, features: String) -> String {
    format!(
        "<document reference=\"{}\">\n{features}</document>\n",
        attribute(suspicious)
    )
}

/// The ground-truth XML of a corpus pair.
pub fn truth_xml(pair: &CorpusPair) -> String {
    let features: String = cases_of(pair)
        .iter()
        .map(|a| feature("plagiarism", Some(pair.obfuscation.name()), a))
        .collect();
    document(&pair.suspicious, features)
}

/// The cases of a corpus pair as annotations.
pub fn cases_of(pair: &CorpusPair) -> Vec<Annotation> {
    pair.cases
        .iter()
        .map(|c| Annotation {
            suspicious: pair.suspicious.clone(),
            this: c.this_offset..c.this_offset + c.this_length,
            source: c.source.clone().unwrap_or_else(|| pair.source.clone()),
            that: c.source_offset..c.source_offset + c.source_length,
        })
        .collect()
}

/// A detector's XML for one pair of documents (`detections` all name `suspicious`).
pub fn detections_xml(suspicious: &str, detections: &[Annotation]) -> String {
    let features: String = detections
        .iter()
        .map(|a| feature("detected-plagiarism", None, a))
        .collect();
    document(suspicious, features)
}

/// Reads the features named `name` (`plagiarism` or `detected-plagiarism`) of one PAN XML file.
pub fn read(path: &Path, name: &str) -> anyhow::Result<Vec<Annotation>> {
    let text =
        std::fs::read_to_string(path).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    parse(&text, name).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))
}

/// Parses the features named `name` of a PAN XML text.
pub fn parse(text: &str, name: &str) -> anyhow::Result<Vec<Annotation>> {
    let xml = roxmltree::Document::parse(text)?;
    let root = xml.root_element();
    let suspicious = root
        .attribute("reference")
        .ok_or_else(|| anyhow::anyhow!("the document element has no reference"))?;
    let number = |node: roxmltree::Node, attribute: &str| -> anyhow::Result<usize> {
        node.attribute(attribute)
            .ok_or_else(|| anyhow::anyhow!("a feature has no {attribute}"))?
            .trim()
            .parse()
            .map_err(|_| anyhow::anyhow!("{attribute} is not a number"))
    };
    root.children()
        .filter(|n| n.has_tag_name("feature") && n.attribute("name") == Some(name))
        .map(|n| {
            let (this, this_length) = (number(n, "this_offset")?, number(n, "this_length")?);
            let (that, that_length) = (number(n, "source_offset")?, number(n, "source_length")?);
            Ok(Annotation {
                suspicious: suspicious.to_string(),
                this: this..this + this_length,
                source: n.attribute("source_reference").unwrap_or("").to_string(),
                that: that..that + that_length,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::alignment::corpus::{Case, Obfuscation};

    #[test]
    fn truth_reads_back() {
        let pair = CorpusPair {
            suspicious: "suspicious-document00003.txt".into(),
            source: "source-document00003.txt".into(),
            size: 5000,
            obfuscation: Obfuscation::Paraphrase,
            cases: vec![Case {
                this_offset: 10,
                this_length: 20,
                source_offset: 30,
                source_length: 40,
                sentences: 3,
                source: None,
            }],
        };
        let xml = truth_xml(&pair);
        assert!(xml.contains("obfuscation=\"paraphrase\""));
        assert_eq!(parse(&xml, "plagiarism").unwrap(), cases_of(&pair));
        assert!(parse(&xml, "detected-plagiarism").unwrap().is_empty());
        assert_eq!(
            pair_file_name(&pair.suspicious, &pair.source),
            "suspicious-document00003-source-document00003.xml"
        );
    }

    #[test]
    fn detections_read_back_with_odd_names() {
        let detections = vec![Annotation {
            suspicious: "a \"quoted\" & <odd>.txt".into(),
            this: 0..5,
            source: "b'.txt".into(),
            that: 7..9,
        }];
        let xml = detections_xml("a \"quoted\" & <odd>.txt", &detections);
        assert_eq!(parse(&xml, "detected-plagiarism").unwrap(), detections);
    }
}
