import FetchKitMacrosImplementation
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// The macros under test, by the names source uses.
let entityMacros: [String: MacroSpec] = [
    "Entity": MacroSpec(type: EntityMacro.self, conformances: ["EntityRecord"]),
    "PrimaryKey": MacroSpec(type: MarkerMacro.self),
    "Attribute": MacroSpec(type: MarkerMacro.self),
    "Transient": MacroSpec(type: MarkerMacro.self),
    "Relationship": MacroSpec(type: RelationshipMacro.self)
]

/// `assertMacroExpansion` reporting through swift-testing.
func assertExpansion(
    _ source: String, expandedSource: String, diagnostics: [DiagnosticSpec] = [],
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    assertMacroExpansion(
        source, expandedSource: expandedSource, diagnostics: diagnostics, macroSpecs: entityMacros,
        failureHandler: { Issue.record(Comment(rawValue: $0.message)) }, fileID: fileID, filePath: filePath,
        line: line, column: column)
}
