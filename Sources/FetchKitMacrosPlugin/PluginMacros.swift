import FetchKitMacrosImplementation
import SwiftSyntax
import SwiftSyntaxMacros

// The macros as the compiler names them (`#externalMacro(module: "FetchKitMacrosPlugin", type: …)`): the plugin
// finds a macro by its type's module and name, so each is declared in this module and forwards to its
// implementation in FetchKitMacrosImplementation, which the macro tests call directly.

/// `@Entity`: ``FetchKitMacrosImplementation/EntityMacro``.
public struct EntityMacro: ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol, conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        try FetchKitMacrosImplementation.EntityMacro.expansion(
            of: node, attachedTo: declaration, providingExtensionsOf: type, conformingTo: protocols, in: context)
    }
}

/// `@PrimaryKey`, `@Attribute`, `@Transient`: ``FetchKitMacrosImplementation/MarkerMacro``.
public struct MarkerMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        try FetchKitMacrosImplementation.MarkerMacro.expansion(of: node, providingPeersOf: declaration, in: context)
    }
}

/// `@Relationship`: ``FetchKitMacrosImplementation/RelationshipMacro``.
public struct RelationshipMacro: AccessorMacro, PeerMacro {
    public static func expansion(
        of node: AttributeSyntax, providingAccessorsOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AccessorDeclSyntax] {
        try FetchKitMacrosImplementation.RelationshipMacro.expansion(
            of: node, providingAccessorsOf: declaration, in: context)
    }

    public static func expansion(
        of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        try FetchKitMacrosImplementation.RelationshipMacro.expansion(
            of: node, providingPeersOf: declaration, in: context)
    }
}
