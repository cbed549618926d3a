//! Dev tool: print brush-parser's AST and word pieces for a script (argv[1]).
fn main() {
    let src = std::env::args().nth(1).unwrap_or_default();
    let opts = brush_parser::ParserOptions::default();
    let mut p = brush_parser::Parser::new(std::io::Cursor::new(src.as_bytes()), &opts);
    match p.parse_program() {
        Ok(prog) => println!("{prog:#?}"),
        Err(e) => println!("ERR {e:?}"),
    }
    for w in std::env::args().skip(2) {
        println!("{:#?}", brush_parser::word::parse(&w, &opts));
    }
}
