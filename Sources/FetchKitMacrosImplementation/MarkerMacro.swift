import SwiftSyntax
import SwiftSyntaxMacros

/// `@PrimaryKey`, `@Attribute`, `@Transient` and `@Relationship(inverse:)`: markers `@Entity` reads, which
/// expand to nothing.
public struct MarkerMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        []
    }
}
