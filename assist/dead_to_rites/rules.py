"""The Dead to Rites rules this plugin checks (ids and numbers as in rules-catalogue.md, Part C)."""
from __future__ import annotations

from assist.api import Flag, OpContext, OpRef
from assist.rule_table import RuleTable

# Rulebook sections (dead-to-rites-v0.2.txt headings)
OVERVIEW = "Overview"
COMPONENTS = "Components"
CARD_TYPES = "Main deck card types"
KEY_TERMS = "Key terms"
SETUP = "Setup"
TURN = "Turn structure"
COMBAT = "Combat"
COMBAT_RULES = "Combat rules"
RITUAL = "The Ritual track"
STOPPING = "Stopping the leader"
BLOCKED = "When a Rite is blocked"
PACTS = "Pacts"
ACES = "Ace Champions"
CROWNS = "The six Crowns"
DECK_BUILDING = "Timing and details: Deck building"
THIS_TABLE = "Using this table"

RULES = RuleTable([
    # (rule, catalogue severity, section, summary)
    ("DTR-PLAYERS-4", "W", OVERVIEW, "The game is for exactly 4 players."),
    ("DTR-DECK-SIZE", "E", DECK_BUILDING, "Each main deck has exactly 40 cards (module: "
     "[rules.deck.main] cards)."),
    ("DTR-DECK-COPIES", "E", COMPONENTS, "At most 3 copies of any card name in a main deck."),
    ("DTR-DECK-FACTION", "E", DECK_BUILDING, "Only your own Crown's cards and Neutral cards."),
    ("DTR-RITES-SEPARATE", "E", COMPONENTS, "The 5 Rites are face up in order beside you; they "
     "are only ever in the Rite stack, on the Altar or in the Completed pile."),
    ("DTR-CROWN-COMPONENTS", "W", COMPONENTS, "A Crown card, and its Secrets/Bonds/Requiem/"
     "Wildfire tracker only if the Crown uses one."),
    ("DTR-SETUP-STEP0", "E", SETUP, "Every step marker starts on 0 and Completed piles are empty."),
    ("DTR-SETUP-DRAW6", "E", SETUP, "Each player starts with 6 cards (rules.opening_hand)."),
    ("DTR-MULLIGAN", "E", SETUP, "At most one mulligan each (rules.mulligans), only at the start."),
    ("DTR-FIRST-PLAYER", "E", SETUP, "Turns go clockwise from the first player."),
    ("DTR-START-FAVOR", "E", SETUP, "Starting Favor 0, 0, 1, 2 by seat."),
    ("DTR-FAVOR-CAP", "E", TURN, "Never more than 6 Favor (the Crown's favor_cap: Hollow Market 7)."),
    ("DTR-FAVOR-OVERCAP-LOST", "E", TURN, "A gain over the cap stops at the cap."),
    ("DTR-FAVOR-NONNEG", "E", KEY_TERMS, "Favor is never negative."),
    ("DTR-FAVOR-REFILL-OWN-TURN", "W", TURN, "Favor only refills on your own turn."),
    ("DTR-OWN-COUNTERS", "W", THIS_TABLE, "Players adjust only their own counters."),
    ("DTR-DAWN-READY", "E*", KEY_TERMS, "Your Champions ready at your Dawn. (E*)"),
    ("DTR-READY-ONLY-AT-DAWN", "W", KEY_TERMS, "A Champion readied outside its controller's Dawn."),
    ("DTR-DAWN-INCOME", "W", TURN, "Every player gains Favor and draws at their Dawn."),
    ("DTR-ENGAGE-CAUSE", "W", KEY_TERMS, "A Champion engages only to attack or for an "
     "\"Engage:\" ability (declare engage)."),
    ("DTR-DAMAGE-CLEAR-DUSK", "E*", COMBAT_RULES, "Non-Poison damage clears at Dusk. (E*)"),
    ("DTR-POISON-PERSIST", "E", COMBAT_RULES, "Poison damage stays until the Champion leaves play."),
    ("DTR-ATTACK-IN-COMBAT", "E", COMBAT, "Only the active player attacks, in their Combat phase."),
    ("DTR-DECLARE-ALL-AT-ONCE", "E", COMBAT, "All attacks are declared before fights resolve."),
    ("DTR-ATTACKER-READY", "E", KEY_TERMS, "Only ready Champions attack."),
    ("DTR-ATTACK-ONCE", "E*", COMBAT, "A Champion attacks at most once per turn. (E*)"),
    ("DTR-ATTACKER-ENGAGES", "E", KEY_TERMS, "Every declared attacker is turned sideways."),
    ("DTR-NEW-CHAMPION-NO-ATTACK", "E*", COMBAT_RULES, "New Champions can't attack the turn they're "
     "played (unless haste, e.g. Flame Herald). (E*)"),
    ("DTR-CANT-ATTACK-NAMED", "E", COMBAT_RULES, "Champions that \"can't attack\" never attack."),
    ("DTR-TARGET-OPPONENT-CHAMPION", "E", COMBAT, "The target is a Champion an opponent controls."),
    ("DTR-NO-PLAYER-ATTACKS", "E", COMBAT, "There are no attacks on players."),
    ("DTR-COMBAT-DAMAGE", "E*", COMBAT, "Each target takes the total Power of its attackers. (E*)"),
    ("DTR-NO-DEFENDERS", "E*", COMBAT_RULES, "Combat damage goes only to targets and, by strike "
     "back, their attackers. (E*)"),
    ("DTR-STRIKE-BACK", "E*", COMBAT, "Every target strikes back once at one of its attackers. (E*)"),
    ("DTR-DESTROY-AT-GUARD", "E*", COMBAT_RULES, "A Champion with damage >= Guard is destroyed. (E*)"),
    ("DTR-DESTROY-DEST", "E", KEY_TERMS, "Destroyed Champions go to their owner's discard pile."),
    ("DTR-ACE-UNIQUE", "E", ACES, "You can't control two Aces with the same name."),
    ("DTR-CHAMPION-ENTERS-READY", "W", COMBAT_RULES, "A new Champion enters ready (upright)."),
    ("DTR-RITE-NEXT", "E", RITUAL, "Only your next Rite (top of your stack, step + 1) goes on "
     "the Altar."),
    ("DTR-RITE-COST", "E*", RITUAL, "Pay the Rite's cost, +1 when alone in the lead; paying "
     "nothing is a slip too. (E*)"),
    ("DTR-RITE-ACTIVE-PLAYER", "W", STOPPING, "Only the active player places a Rite."),
    ("DTR-ALTAR-ONE", "E", COMPONENTS, "One Rite at a time on the Altar."),
    ("DTR-CROWNING", "E*", RITUAL, "Step 4 or 5 on the Altar: every other player draws 1 before "
     "responding. (E*)"),
    ("DTR-POOL-OPPONENTS-ONLY", "E", STOPPING, "Only the Rite owner's opponents commit cards."),
    ("DTR-POOL-ORDER", "W", STOPPING, "Commits go clockwise from the left of the active player."),
    ("DTR-POOL-FACEDOWN", "E", STOPPING, "Committed cards come from hand, face down, main-deck "
     "cards only."),
    ("DTR-WARD-READY-CHAMPIONS", "E*", RITUAL, "Ward = printed Ward + 1 per ready Champion. (E*)"),
    ("DTR-POOL-FLIP-RESULT", "E*", STOPPING, "Blocked exactly when the Block total >= Ward. (E*)"),
    ("DTR-POOL-DISCARD", "E", STOPPING, "Committed cards go to their owners' discard piles."),
    ("DTR-BLOCKED-RETURN", "E", BLOCKED, "A blocked Rite returns to the top of its Rite stack."),
    ("DTR-BLOCKED-FAVOR", "E", BLOCKED, "A blocked Rite's owner gains exactly 2 Favor, capped."),
    ("DTR-BLOCKED-DRAW", "E*", BLOCKED, "A blocked Rite's owner draws 2 (Grave Choir 3). (E*)"),
    ("DTR-RESOLVED-COMPLETED", "E", RITUAL, "A resolved Rite goes face up on top of its owner's "
     "Completed pile."),
    ("DTR-STEP-EQUALS-COMPLETED", "E", RITUAL, "Your step equals the Rites in your Completed pile."),
    ("DTR-STEP5-WIN", "E", RITUAL, "Resolving Step 5 wins; no win without it."),
    ("DTR-PATH-LIMIT", "E", CROWNS, "A Path advances only through Steps 1-3."),
    ("DTR-PACT-SINGLE", "E", PACTS, "A Pact is offered to exactly one other player."),
    ("DTR-PACT-ACCEPTED-ZONE", "E", PACTS, "An accepted Pact lies face up between the two players."),
    ("DTR-PACT-EXPIRY", "E*", PACTS, "A Pact ends at the end of the offerer's next Dawn. (E*)"),
    ("DTR-PACT-DECLINE", "E", PACTS, "A declined Pact goes back to the offerer's hand."),
    ("DTR-PACT-BREAK", "E*", PACTS, "Breaking: breaker loses 2 Favor, the other draws 2, the Pact "
     "is discarded. (E*)"),
    ("DTR-COUNTER", "E", KEY_TERMS, "A countered card goes to the discard pile, cost not refunded."),
    ("DTR-EXPEL", "W", KEY_TERMS, "Expel X: exactly the top X cards of your deck to your discard."),
    ("DTR-BLOCK-VALUES", "W", CARD_TYPES, "Every main-deck card has a Block value 0-3."),
    ("DTR-PLAY-COST", "E*", KEY_TERMS, "A card played from hand costs its printed Favor cost "
     "(the module's cost column), paid from the Favor tracker in the same action. (E*)"),
    ("DTR-OFFTURN-INTERRUPTS-ONLY", "W", TURN, "On another player's turn you may play only "
     "Interrupts."),
])

def flag(ctx: OpContext, rule: str, message: str, *, objects: tuple[str, ...] = (),
         at: OpRef | None = None) -> Flag:
    """A flag for `rule`; an E* rule becomes a warning when a card effect was declared. `at`:
    the op it judges when that is not the op being checked (a verdict given later)."""
    return RULES.flag(rule, message, excused=ctx.excused, objects=objects,
                      ops=(at,) if at is not None else ())
