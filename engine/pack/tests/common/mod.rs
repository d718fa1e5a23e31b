//! Building archives by hand, including ones no honest tool writes: raw ustar headers with any
//! name, type and size, gzip'd.

#![allow(dead_code)]

use flate2::Compression;
use flate2::write::GzEncoder;
use std::io::Write;

/// One raw tar entry.
#[derive(Clone, Debug)]
pub struct Raw {
    pub name: Vec<u8>,
    pub kind: u8,
    pub data: Vec<u8>,
    pub link: Vec<u8>,
    /// The size written in the header (defaults to the data's length).
    pub size: Option<u64>,
}

pub fn file(name: &str, data: &[u8]) -> Raw {
    Raw {
        name: name.as_bytes().to_vec(),
        kind: b'0',
        data: data.to_vec(),
        link: vec![],
        size: None,
    }
}

pub fn entry(name: &str, kind: u8) -> Raw {
    Raw {
        name: name.as_bytes().to_vec(),
        kind,
        data: vec![],
        link: b"/etc/passwd".to_vec(),
        size: None,
    }
}

fn octal(field: &mut [u8], v: u64) {
    let s = format!("{:0width$o}\0", v, width = field.len() - 1);
    field.copy_from_slice(s.as_bytes());
}

/// Raw ustar bytes (not compressed).
pub fn tar_bytes(entries: &[Raw]) -> Vec<u8> {
    let mut out = Vec::new();
    for e in entries {
        let mut h = [0u8; 512];
        let n = e.name.len().min(100);
        h[..n].copy_from_slice(&e.name[..n]);
        octal(&mut h[100..108], 0o644);
        octal(&mut h[108..116], 0);
        octal(&mut h[116..124], 0);
        octal(&mut h[124..136], e.size.unwrap_or(e.data.len() as u64));
        octal(&mut h[136..148], 0);
        h[156] = e.kind;
        let l = e.link.len().min(100);
        h[157..157 + l].copy_from_slice(&e.link[..l]);
        h[257..263].copy_from_slice(b"ustar\0");
        h[263..265].copy_from_slice(b"00");
        h[148..156].copy_from_slice(b"        ");
        let sum: u32 = h.iter().map(|&b| u32::from(b)).sum();
        let s = format!("{sum:06o}\0 ");
        h[148..156].copy_from_slice(s.as_bytes());
        out.extend_from_slice(&h);
        out.extend_from_slice(&e.data);
        let pad = (512 - e.data.len() % 512) % 512;
        out.extend(std::iter::repeat_n(0u8, pad));
    }
    out.extend(std::iter::repeat_n(0u8, 1024));
    out
}

pub fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut gz = GzEncoder::new(Vec::new(), Compression::best());
    gz.write_all(bytes).unwrap();
    gz.finish().unwrap()
}

/// A gzip'd tar of the entries.
pub fn archive(entries: &[Raw]) -> Vec<u8> {
    gzip(&tar_bytes(entries))
}

pub const MANIFEST: &str = "id = \"demo\"\nname = \"Demo\"\nversion = \"1.0.0\"\nengine = \"*\"\n";

/// A valid pack of mod `demo` with the given extra files, as raw entries (index first).
pub fn valid_entries(extra: &[(&str, &[u8])]) -> Vec<Raw> {
    let mut files = std::collections::BTreeMap::new();
    files.insert("mod.toml".to_string(), MANIFEST.as_bytes().to_vec());
    files.insert("main.lua".to_string(), b"-- rules".to_vec());
    for (n, d) in extra {
        files.insert((*n).to_string(), d.to_vec());
    }
    let index = format!(
        "{{\"format\":\"hexpack\",\"version\":1,\"id\":\"demo\",\"mod_version\":\"1.0.0\",\"content_hash\":\"{}\",\"files\":{}}}",
        hexforge_pack::hash::content_hash(&files),
        files.len()
    );
    let mut out = vec![file("hexpack.json", index.as_bytes())];
    for (n, d) in &files {
        out.push(file(&format!("demo/{n}"), d));
    }
    out
}

/// A mod folder `<tmp>/<id>` with a manifest at `version` and the given files.
pub fn mod_dir(
    tmp: &std::path::Path,
    id: &str,
    version: &str,
    extra: &str,
    files: &[(&str, &str)],
) -> std::path::PathBuf {
    let dir = tmp.join(id);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("mod.toml"),
        format!("id = \"{id}\"\nname = \"{id}\"\nversion = \"{version}\"\nengine = \"*\"\n{extra}"),
    )
    .unwrap();
    for (n, body) in files {
        let p = dir.join(n);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, body).unwrap();
    }
    dir
}

/// Every file under `dir` (hidden ones included) with its bytes: a byte-for-byte snapshot.
pub fn snapshot(dir: &std::path::Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for e in walkdir::WalkDir::new(dir).sort_by_file_name() {
        let e = e.unwrap();
        let rel = e
            .path()
            .strip_prefix(dir)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let bytes = if e.file_type().is_file() {
            std::fs::read(e.path()).unwrap()
        } else {
            b"<dir>".to_vec()
        };
        out.push((rel, bytes));
    }
    out
}
