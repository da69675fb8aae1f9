import Foundation
import Testing

/// The documentation's code compiles: every ```swift block of the README and of `docs/` is, byte for byte, a marked
/// region of a file under `Snippets/`, which this target compiles, and every marked region is shown on some page.
///
/// To change a block, change its snippet file and paste the region into the page (or the reverse); a failure names
/// the page, the line and the nearest snippet. `Package.swift` fragments cannot compile alone: they are read
/// loosely, for the library products they name.
@Suite struct DocSnippetTests {
    /// The package's root folder, found from this file's place in `Tests/DocSnippetTests/`.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Every fenced block of README.md and docs/*.md.
    static func pageBlocks() throws -> [MarkdownCodeBlock] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
        return try (["README.md"] + docs).flatMap { page in
            MarkdownCodeBlock.blocks(in: try text(of: page), page: page)
        }
    }

    /// Every marked region of the files under `Snippets/`.
    static func snippets() throws -> [DocSnippet] {
        let folder = "Tests/DocSnippetTests/Snippets"
        let files = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)
            .filter { $0.hasSuffix(".swift") }.sorted().map { folder + "/" + $0 }
        return try files.flatMap { file in DocSnippet.snippets(in: try text(of: file), file: file) }
    }

    /// The text of the file at `path`, relative to the package root.
    static func text(of path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    @Test func everySwiftBlockOfTheDocsIsACompiledSnippet() throws {
        // Given every Swift block of the pages, and every compiled snippet
        let snippets = try Self.snippets()
        let blocks = try Self.pageBlocks().filter { $0.language == "swift" && !$0.isPackageManifestFragment }
        #expect(!blocks.isEmpty)

        // Then each block is the text of a snippet
        for block in blocks where !snippets.contains(where: { $0.text == block.text }) {
            Issue.record(Comment(rawValue: Self.mismatch(of: block, nearest: snippets)))
        }
    }

    @Test func everySnippetIsShownOnAPage() throws {
        // Given the text of every Swift block of the pages
        let shown = Set(try Self.pageBlocks().filter { $0.language == "swift" }.map(\.text))

        // Then no snippet is compiled for nothing, and no two carry the same name
        for snippet in try Self.snippets() where !shown.contains(snippet.text) {
            Issue.record("\(snippet.file): snippet '\(snippet.name)' is on no page (README.md, docs/*.md)")
        }
        let names = try Self.snippets().map(\.name)
        #expect(Set(names).count == names.count, "snippet names repeat: \(names.sorted())")
    }

    @Test func packageManifestFragmentsNameTheLibraryProducts() throws {
        // Given the library products Package.swift declares, and the fragments of a Package.swift on the pages
        let manifest = try Self.text(of: "Package.swift")
        let libraries = Set(try Self.captures(of: #"\.library\(name: "([^"]+)""#, in: manifest))
        let fragments = try Self.pageBlocks().filter { $0.language == "swift" && $0.isPackageManifestFragment }
        #expect(!fragments.isEmpty)

        // Then every product a fragment depends on is one of them
        for fragment in fragments {
            let products = try Self.captures(of: #"\.product\(name: "([^"]+)""#, in: fragment.text)
            #expect(!products.isEmpty, "\(fragment.page):\(fragment.line): names no product")
            for product in products where !libraries.contains(product) {
                Issue.record("\(fragment.page):\(fragment.line): '\(product)' is not a library of Package.swift")
            }
        }
    }

    @Test func theReadmeFitsIn250Lines() throws {
        let lines = try Self.text(of: "README.md").split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count - 1 <= 250, "README.md has \(lines.count - 1) lines")
    }

    /// What to say about `block`, which no snippet equals: where it is, and where the nearest snippet first differs.
    static func mismatch(of block: MarkdownCodeBlock, nearest snippets: [DocSnippet]) -> String {
        let blockLines = block.text.split(separator: "\n", omittingEmptySubsequences: false)
        let sharedLines = { (snippet: DocSnippet) in
            zip(blockLines, snippet.text.split(separator: "\n", omittingEmptySubsequences: false))
                .prefix(while: { $0 == $1 }).count
        }
        let place = "\(block.page):\(block.line): this ```swift block is no snippet under Tests/DocSnippetTests/Snippets"
        guard let nearest = snippets.max(by: { sharedLines($0) < sharedLines($1) }) else { return place }
        let snippetLines = nearest.text.split(separator: "\n", omittingEmptySubsequences: false)
        let differing = sharedLines(nearest)
        let pageLine = differing < blockLines.count ? "'\(blockLines[differing])'" : "(the block ends)"
        let snippetLine = differing < snippetLines.count ? "'\(snippetLines[differing])'" : "(the snippet ends)"
        return "\(place); the nearest, '\(nearest.name)' in \(nearest.file), first differs at its line \(differing + 1):"
            + " the page has \(pageLine), the snippet \(snippetLine)"
    }

    /// The first capture group of every match of `pattern` in `text`.
    static func captures(of pattern: String, in text: String) throws -> [String] {
        let expression = try NSRegularExpression(pattern: pattern)
        return expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
            Range(match.range(at: 1), in: text).map { String(text[$0]) }
        }
    }
}
