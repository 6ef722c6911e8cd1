// `import Frost` is all a program writes: the engine's areas, re-exported. Each area stays
// importable on its own (docs/design.md, Modules).
@_exported import FrostCore
@_exported import FrostColor
@_exported import FrostCodecs
@_exported import FrostStorage
@_exported import FrostFiles
@_exported import FrostEffects
@_exported import FrostCache
@_exported import FrostCrossfade
@_exported import FrostClients
@_exported import FrostCompose
@_exported import FrostMotion
@_exported import FrostStream
