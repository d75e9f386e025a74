import SwiftCompilerPlugin
import SwiftSyntaxMacros

/// The compiler plugin that provides FetchKit's macros.
@main
struct FetchKitMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [EntityMacro.self, MarkerMacro.self, RelationshipMacro.self]
}
