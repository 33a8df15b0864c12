;;; mthds-mode.el --- Major mode for MTHDS methods, with eglot  -*- lexical-binding: t; -*-

;; Version: 0.1.0
;; Package-Requires: ((emacs "28.1"))
;; Keywords: languages

;;; Commentary:

;; MTHDS bundles (`.mthds') and package manifests (`METHODS.toml', `methods.lock') are TOML:
;; `mthds-mode' is `conf-toml-mode' under its own name, so that eglot starts the MTHDS language
;; server (`mthds-language-server --stdio') for them and for nothing else.  The project of a
;; file is its MTHDS package: the nearest folder holding a `METHODS.toml' (else whatever
;; `project-find-functions' finds after it, such as the version-control root).
;;
;; Emacs 28 has no built-in eglot: install it first (`M-x package-install RET eglot', or
;; Debian's `elpa-eglot').  Then, in your init file:
;;
;;   (add-to-list 'load-path "/path/to/mthds/editors/emacs")
;;   (require 'mthds-mode)
;;   (add-hook 'mthds-mode-hook #'eglot-ensure)

;;; Code:

(require 'conf-mode)
(require 'project)

;;;###autoload
(define-derived-mode mthds-mode conf-toml-mode "MTHDS"
  "Major mode for MTHDS bundles and package manifests (TOML)."
  (setq-local comment-start "# "))

;;;###autoload
(progn
  (add-to-list 'auto-mode-alist '("\\.mthds\\'" . mthds-mode))
  (add-to-list 'auto-mode-alist '("/METHODS\\.toml\\'" . mthds-mode))
  (add-to-list 'auto-mode-alist '("/methods\\.lock\\'" . mthds-mode)))

(defun mthds-project-find (dir)
  "The MTHDS package holding DIR: the nearest folder with a METHODS.toml, or nil."
  (let ((root (locate-dominating-file dir "METHODS.toml")))
    (and root (cons 'mthds (file-name-as-directory (expand-file-name root))))))

(cl-defmethod project-root ((project (head mthds)))
  (cdr project))

;; Before the version-control lookup: a package inside a repository is its own project.
(add-hook 'project-find-functions #'mthds-project-find)

(defvar eglot-server-programs)

(with-eval-after-load 'eglot
  (add-to-list 'eglot-server-programs '(mthds-mode . ("mthds-language-server" "--stdio"))))

(provide 'mthds-mode)
;;; mthds-mode.el ends here
