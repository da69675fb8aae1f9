/// The one definition of the characters that text from a session must never carry raw into output, because they
/// are not shown as what they are: ``String/escapingControls(keepingLineBreaks:)`` escapes those a terminal acts on,
/// and the command line's other output formats (Swift source, XML, Markdown) escape all of them.
///
/// Raw, each would let text from a session act as something else: a control character (C0, DEL, C1, NEL among
/// them) or a line or paragraph separator ends a line, a comment or a table row, or drives a terminal; a format
/// character (a bidirectional override, a zero-width mark) makes text read differently from what it is; a
/// noncharacter (U+FFFE, U+FFFF) or an unassigned one is not text at all.
package enum InvisibleScalars {
    /// Whether a terminal acts on `scalar` instead of showing it: a control character (C0, DEL, C1), a line or
    /// paragraph separator, or a bidirectional control. All of them lie in the Basic Multilingual Plane.
    package static func actsOnTerminal(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: true
        default: scalar.properties.isBidiControl
        }
    }

    /// Whether `scalar` is invisible: one a terminal acts on (``actsOnTerminal(_:)``), or any other format
    /// character, a surrogate, or an unassigned code point.
    package static func contains(_ scalar: Unicode.Scalar) -> Bool {
        if actsOnTerminal(scalar) { return true }
        switch scalar.properties.generalCategory {
        case .format, .surrogate, .unassigned: return true
        default: return false
        }
    }
}
