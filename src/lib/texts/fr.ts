/**
 * Every sentence the plugin tells a merchant, in French (Quebec usage, Medusa's own French words:
 * « capture », « remboursement », « expédition » for a fulfilment), by code; see ./en.ts.
 */
export const FR_TEXTS: Record<string, string> = {
  verbatim: "{{text}}",
  because: " ({{fact}})",
  where_paybright: "sur le contrat PayBright {{contract}}",
  where_card: "sur la carte virtuelle du contrat PayBright {{contract}}, par {{via}}",
  check_processor_too: " et le paiement dans {{via}}",

  capture_done: "{{amount}} capturé {{where}}.",
  refund_done: "{{amount}} remboursé {{where}}.",
  capture_refused:
    "La capture de {{amount}} {{where}} n’a pas été faite{{because}}; rien n’a bougé : corrigez la cause, puis réessayez.",
  refund_refused:
    "Le remboursement de {{amount}} {{where}} n’a pas été fait{{because}}; rien n’a bougé : corrigez la cause, puis réessayez.",
  capture_in_doubt:
    "La capture de {{amount}} {{where}} a peut-être été faite{{because}}; vérifiez le contrat dans le portail PayBright{{check_too}}, puis indiquez si elle a été faite ou non, avant toute autre capture ou tout autre remboursement sur ce paiement.",
  refund_in_doubt:
    "Le remboursement de {{amount}} {{where}} a peut-être été fait{{because}}; vérifiez le contrat dans le portail PayBright{{check_too}}, puis indiquez s’il a été fait ou non, avant toute autre capture ou tout autre remboursement sur ce paiement.",
  void_done: "Contrat PayBright {{contract}} ({{amount}}) annulé chez PayBright : le prêt du client est annulé.",
  void_refused:
    "Le contrat PayBright {{contract}} ({{amount}}) n’a pas été annulé{{because}}; le prêt du client est toujours actif : corrigez la cause et relancez l’annulation, ou annulez le contrat dans le portail PayBright et indiquez qu’il est annulé.",
  void_in_doubt:
    "Le contrat PayBright {{contract}} ({{amount}}) a peut-être été annulé{{because}}; vérifiez le contrat dans le portail PayBright, puis indiquez s’il est annulé ou non.",

  capture_removed_by_medusa:
    "La capture de {{amount}} sur le contrat PayBright {{contract}} a été faite chez PayBright, mais Medusa a supprimé sa propre trace après une erreur de son côté et ne la compte pas; vérifiez le contrat dans le portail PayBright, puis indiquez si elle a été faite ou non, avant toute autre capture ou tout autre remboursement sur ce paiement.",
  refund_removed_by_medusa:
    "Le remboursement de {{amount}} sur le contrat PayBright {{contract}} a été fait chez PayBright, mais Medusa a supprimé sa propre trace après une erreur de son côté et ne le compte pas; vérifiez le contrat dans le portail PayBright, puis indiquez s’il a été fait ou non, avant toute autre capture ou tout autre remboursement sur ce paiement.",
  capture_outcome_lost_removed_by_medusa:
    "La capture de {{amount}} sur le contrat PayBright {{contract}} a été envoyée et a peut-être été faite chez PayBright, mais son résultat n’a jamais été enregistré et Medusa a supprimé sa propre trace; vérifiez le contrat dans le portail PayBright, puis indiquez si elle a été faite ou non, avant toute autre capture ou tout autre remboursement sur ce paiement.",
  refund_outcome_lost_removed_by_medusa:
    "Le remboursement de {{amount}} sur le contrat PayBright {{contract}} a été envoyé et a peut-être été fait chez PayBright, mais son résultat n’a jamais été enregistré et Medusa a supprimé sa propre trace; vérifiez le contrat dans le portail PayBright, puis indiquez s’il a été fait ou non, avant toute autre capture ou tout autre remboursement sur ce paiement.",
  capture_unexplained_in_medusa:
    "Medusa compte une capture de {{amount}} sur le contrat PayBright {{contract}} qu’aucune trace PayBright n’explique; vérifiez le contrat dans le portail PayBright, puis indiquez si elle a été faite ou non, avant toute autre capture ou tout autre remboursement sur ce paiement.",
  refund_unexplained_in_medusa:
    "Medusa compte un remboursement de {{amount}} sur le contrat PayBright {{contract}} qu’aucune trace PayBright n’explique; vérifiez le contrat dans le portail PayBright, puis indiquez s’il a été fait ou non, avant toute autre capture ou tout autre remboursement sur ce paiement.",

  a_capture: "Une capture",
  a_refund: "Un remboursement",
  a_void: "Une annulation",
  the_capture: "la capture",
  the_refund: "le remboursement",
  the_void: "l’annulation",
  blocked_by_doubt:
    "{{movement}} de {{amount}} sur le contrat PayBright {{contract}} est en suspens; réglez cette fiche dans le panneau PayBright de la commande (selon ce que montre le portail PayBright) avant de capturer ou de rembourser de nouveau.",
  cancel_blocked_in_doubt:
    "Non annulée : {{movement}} de {{amount}} sur le contrat PayBright {{contract}} est en suspens (fiche {{record}}); réglez cette fiche dans le panneau PayBright de la commande selon ce que montre le portail PayBright, puis annulez de nouveau.",
  cancel_blocked_running:
    "Non annulée : {{movement}} de {{amount}} sur le contrat PayBright {{contract}} est en cours (fiche {{record}}); attendez la fin, puis annulez de nouveau.",
  capture_not_started:
    "La capture n’a pas pu commencer ({{fact}}); rien n’a bougé : relancez-la depuis le panneau PayBright de la commande.",
  refund_not_started:
    "Le remboursement n’a pas pu commencer ({{fact}}); rien n’a bougé : relancez-le depuis le panneau PayBright de la commande.",
  void_not_started:
    "L’annulation n’a pas pu commencer ({{fact}}); rien n’a bougé : relancez-la depuis le panneau PayBright de la commande.",
  server_stopped_before: "le serveur s’est peut-être arrêté avant qu’elle commence",
  call_never_finished: "l’appel ne s’est jamais terminé; le serveur s’est peut-être arrêté pendant",
  request_invalid: "la requête était invalide et n’a pas été envoyée",
  parcel_payment_replaced:
    "Ce colis ({{amount}}) n’a pas été capturé, car Medusa venait de remplacer le paiement de la commande après une modification; le contrat PayBright {{contract}} continue dans le nouveau paiement : relancez la capture depuis le panneau PayBright de la commande.",
  capture_too_precise:
    "Le montant de capture {{amount}} contient des fractions de cent et n’est pas tout ce qui reste, or PayBright ne déplace que des cents entiers; saisissez un montant en cents, ou capturez tout ce qui reste.",
  refund_too_precise:
    "Le montant de remboursement {{amount}} contient des fractions de cent et n’est pas tout ce qui reste, or PayBright ne déplace que des cents entiers; saisissez un montant en cents, ou remboursez tout ce qui reste.",

  contract_carried:
    "La commande a changé, Medusa a donc remplacé son paiement; le contrat PayBright {{contract}} continue avec {{amount}} encore à capturer sur le nouveau paiement.",
  contract_carried_uncovered:
    "La commande a changé, Medusa a donc remplacé son paiement; le contrat PayBright {{contract}} continue avec {{amount}} encore à capturer sur le nouveau paiement. À ce moment, la commande devait {{uncovered}} de plus, ce qui dépasse ce que couvre le contrat : encaissez-le autrement (lien de paiement de Medusa, ou marquez-le comme payé); la liste « PayBright : à traiter » tient à jour ce qui reste à encaisser.",
  above_the_loan:
    "Le total de la commande dépasse maintenant ce que couvre le contrat PayBright {{contract}} : encaissez les {{amount}} restants autrement (lien de paiement de Medusa, ou marquez-les comme payés).",

  resolved_capture_done:
    "Réglé : PayBright montre la capture de {{amount}}; enregistrée dans Medusa sans rappeler PayBright.",
  resolved_refund_done:
    "Réglé : PayBright montre le remboursement de {{amount}}; enregistré dans Medusa sans rappeler PayBright.",
  resolved_capture_nothing:
    "Réglé : PayBright ne montre aucune capture de {{amount}}; une nouvelle tentative est permise.",
  resolved_refund_nothing:
    "Réglé : PayBright ne montre aucun remboursement de {{amount}}; une nouvelle tentative est permise.",
  resolved_void_done: "Réglé : PayBright montre le contrat ({{amount}}) annulé; le client n’a plus de prêt.",
  resolved_void_nothing: "Réglé : PayBright montre le contrat ({{amount}}) toujours actif; relancez l’annulation.",
  medusa_refused_capture_resolution:
    "Medusa a refusé d’enregistrer cette capture ({{reason}}) : la fiche reste {{state}} et rien n’a été enregistré; si PayBright l’a capturée, remboursez-la dans le portail PayBright, puis indiquez qu’elle n’a pas été faite.",
  medusa_refused_refund_resolution:
    "Medusa a refusé d’enregistrer ce remboursement ({{reason}}) : la fiche reste {{state}} et rien n’a été enregistré; corrigez ce que Medusa indique, puis réglez-la de nouveau.",
  medusa_refused_void_resolution:
    "Medusa a refusé d’enregistrer cette annulation ({{reason}}) : la fiche reste {{state}} et rien n’a été enregistré; corrigez ce que Medusa indique, puis réglez-la de nouveau.",
  state_in_doubt: "incertaine",
  state_refused: "refusée",

  op_capture: "la capture",
  op_refund: "le remboursement",
  op_void: "l’annulation",
  lender_words: " : {{text}}",
  lender_rejected: "PayBright a refusé {{operation}}{{words}}",
  lender_unauthorized: "PayBright n’a pas accepté la clé et le jeton d’API pour {{operation}}",
  lender_not_found: "PayBright ne connaît pas ce contrat ({{operation}}){{words}}",
  lender_rate_limited: "PayBright a refusé {{operation}} : trop de requêtes",
  lender_unavailable: "PayBright a eu une défaillance pendant {{operation}}{{words}}",
  lender_unexpected_status: "PayBright a répondu d’une façon non documentée pendant {{operation}}{{words}}",
  lender_timeout: "PayBright n’a pas répondu à temps pendant {{operation}}",
  lender_unreachable: "PayBright était injoignable; rien n’a été envoyé pour {{operation}}",
  lender_dropped: "PayBright a coupé la connexion pendant {{operation}}",

  approval_verified: "PayBright a approuvé le contrat {{contract}} pour {{amount}}.",
  approval_voided: "Le contrat {{contract}} ({{amount}}) a été annulé chez PayBright : le prêt du client est annulé.",
  approval_handled: "Le contrat {{contract}} a été marqué comme annulé dans le portail PayBright.",
  orphan: "Le contrat PayBright {{contract}} ({{amount}}) n’a pas de commande : {{why}}{{last_answer}}. {{todo}}",
  orphan_last_answer: " (sa dernière tentative a répondu : {{text}})",
  orphan_voided_after:
    "L’extension l’annule chez PayBright après le {{at}} UTC, ce qui annule le prêt du client; rien à faire, sauf si cela échoue.",
  orphan_cancel_in_portal: "Annulez-le dans le portail PayBright, puis marquez-le comme traité.",
  orphan_session_replaced: "le client a commencé un nouveau paiement avant le retour de cette approbation",
  orphan_cart_changed: "le panier a changé pendant la demande du client, l’approbation ne lui correspond donc plus",
  orphan_completion_failed:
    "le panier n’a pas pu devenir une commande (par exemple, un article est en rupture de stock)",
  orphan_not_placed:
    "la boutique n’a pas pu passer la commande dans le délai de grâce, bien que rien dans le panier ne l’ait refusée",
  orphan_payment_cancelled:
    "Medusa a annulé son paiement pendant la création de la commande (une étape a échoué), et aucune commande ne peut reposer sur un paiement annulé",
  orphan_card_unavailable: "PayBright n’a pas fourni la carte virtuelle du contrat dans le délai de grâce",
  orphan_second_contract: "c’est un deuxième contrat pour un paiement qui en a déjà un",
  orphan_request_fields:
    "PayBright a signé un résultat portant des champs propres à une demande, auquel la boutique ne se fie pas pour passer une commande",
  orphan_test_mismatch:
    "PayBright a signé un résultat dont l’indicateur de test ne correspond pas à la boutique (un résultat de test en production, ou l’inverse)",
  orphan_unknown_result: "PayBright a signé un résultat que la boutique ne sait pas lire",
  orphan_auto_capture_account:
    "PayBright a configuré ce compte en capture automatique; la capture en magasin exige des résultats « authorization » (demandez à PayBright de séparer l’autorisation et la capture)",
  orphan_unknown: "aucune commande n’a pu être passée",

  approval_verified_line: "Approbation vérifiée : contrat {{contract}} pour {{amount}}.",
  capture_line_done: "Capture de {{amount}} {{when}} : faite.",
  refund_line_done: "Remboursement de {{amount}} {{when}} : fait.",
  void_line_done: "Annulation du prêt de {{amount}} {{when}} : faite.",
  capture_line_refused: "Capture de {{amount}} {{when}} refusée : {{why}}",
  refund_line_refused: "Remboursement de {{amount}} {{when}} refusé : {{why}}",
  void_line_refused: "Annulation du prêt de {{amount}} {{when}} refusée : {{why}}",
  capture_line_in_doubt: "Capture de {{amount}} {{when}} incertaine : {{why}}",
  refund_line_in_doubt: "Remboursement de {{amount}} {{when}} incertain : {{why}}",
  void_line_in_doubt: "Annulation du prêt de {{amount}} {{when}} incertaine : {{why}}",
  capture_line_pending: "Capture de {{amount}} {{when}} en cours.",
  refund_line_pending: "Remboursement de {{amount}} {{when}} en cours.",
  void_line_pending: "Annulation du prêt de {{amount}} {{when}} en cours.",
  line_from_admin: "depuis l’administration",
  line_at_shipment: "à l’envoi",
  line_at_fulfillment: "à la création de l’expédition",
  line_at_order_canceled: "à l’annulation de la commande",
  line_at_orphan: "d’un contrat sans commande",
  line_at_retry: "à la relance",
  no_reason_given: "aucune raison donnée",
  check_the_portal: "vérifiez le portail PayBright",
  attention_in_doubt: "Incertain : vérifiez le portail PayBright, puis réglez-le.",
  attention_refused: "Refusé.",

  retry_capture_already_made: "Cette capture est déjà faite; il n’y a rien à relancer.",
  retry_capture_running: "Cette capture est encore en cours; il n’y a rien à relancer.",
  retry_capture_already_retried: "Cette capture a déjà été relancée; relancez plutôt la tentative la plus récente.",
  retry_capture_retried_done:
    "Cette capture a été relancée depuis, et la relance a capturé {{amount}} : l’argent est capturé, il n’y a rien à faire.",
  retry_capture_made_good: "Le montant de cette capture a déjà été capturé depuis; il n’y a rien à relancer.",
  capture_not_made: "La capture n’a pas été faite.",
  contract_not_voided: "Le contrat n’a pas été annulé.",
  payment_busy_capture:
    "La capture n’a pas été faite : une autre capture ou un autre remboursement de ce paiement est en cours (peut-être lancé depuis une page fermée depuis); rien n’a bougé : attendez la fin, consultez le panneau PayBright de la commande, puis réessayez au besoin.",
  payment_busy_refund:
    "Le remboursement n’a pas été fait : une autre capture ou un autre remboursement de ce paiement est en cours (peut-être lancé depuis une page fermée depuis); rien n’a bougé : attendez la fin, consultez le panneau PayBright de la commande, puis réessayez au besoin.",
  order_busy:
    "La commande n’a pas été annulée : une capture ou un remboursement de son paiement PayBright est en cours; rien n’a changé : attendez la fin, consultez le panneau PayBright de la commande, puis annulez de nouveau.",
  capture_above_owed:
    "La capture n’a pas été faite : {{asked}}, c’est plus que ce que ce paiement PayBright peut encore capturer pour ce que la commande doit maintenant ({{capturable}}); rien n’a bougé : capturez {{capturable}} ou moins.",
  capture_nothing_owed:
    "La capture n’a pas été faite : la commande ne doit plus rien que ce paiement PayBright puisse capturer (une modification de la commande a réduit ce qu’elle doit); rien n’a bougé, et il n’y a plus rien à capturer.",
  order_balance_not_financed:
    "PayBright finance une commande une seule fois, au paiement : le solde d’une commande passée ne peut pas être payé par une nouvelle demande PayBright; choisissez un autre moyen de paiement ou communiquez avec le magasin.",

  process_worker: "Le processus d’arrière-plan {{pid}} sur {{host}}",
  process_server: "Le processus serveur {{pid}} sur {{host}}",
  process_plain: "Le processus {{pid}} sur {{host}}",
  settings_unreadable_key:
    "{{process}} ne peut pas utiliser les paramètres PayBright enregistrés pour {{provider}} ({{fact}}) : il refuse donc toute session, capture, tout remboursement et toute tâche PayBright; donnez la même {{variable}} à chaque serveur et processus d’arrière-plan et redémarrez-les, puis, si cette clé a changé depuis l’enregistrement des secrets, saisissez-les de nouveau dans Paramètres → PayBright.",
  settings_unreadable_invalid:
    "{{process}} ne peut pas utiliser les paramètres PayBright enregistrés pour {{provider}} ({{fact}}) : il refuse donc toute session, capture, tout remboursement et toute tâche PayBright; corrigez-les dans Paramètres → PayBright, ou dans medusa-config.ts, pour qu’ils concordent.",
  settings_key_no_key: "ce processus n’a pas de {{variable}} pour déchiffrer {{names}} enregistré",
  settings_key_short_key:
    "la {{variable}} de ce processus compte moins de {{length}} caractères pour déchiffrer {{names}} enregistré",
  settings_key_does_not_decrypt: "{{names}} enregistré ne se déchiffre pas avec la {{variable}} de ce processus",
  card_revealed:
    "Carte virtuelle se terminant par {{last4}} affichée pour débiter {{amount}} au terminal de la boutique.",

  card_charged_by:
    "La carte de ce paiement est débitée par {{processor}}, le processeur sous lequel il a été autorisé; seule une carte débitée par une personne (le processeur manuel) est affichée",
  card_charged_by_none:
    "La carte de ce paiement n’est débitée par aucun processeur; seule une carte débitée par une personne (le processeur manuel) est affichée",
  card_payment_cancelled: "Ce paiement est annulé : sa carte n’est plus affichée",
  card_nothing_left: "Tout ce qui a été autorisé est capturé : il ne reste rien à débiter sur cette carte",
  medusa_failed_after_call: "PayBright a été appelé, mais la capture de Medusa a échoué ensuite : {{error}}",
}
