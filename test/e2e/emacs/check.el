;;; check.el --- a real Emacs with eglot against the built MTHDS language server  -*- lexical-binding: t; -*-

;; Run by test/e2e/emacs.test.ts: `emacs --batch -q -l check.el', with MTHDS_MODE (the shipped
;; editors/emacs/mthds-mode.el) or MTHDS_INIT (docs/editors.md's init.el lines), MTHDS_FILE (a copy of the broken example inside a package) and
;; MTHDS_RESULT (where the JSON report goes).  The server is found on PATH as
;; `mthds-language-server', through the `eglot-server-programs' line of mthds-mode.el.  Every
;; step is what a user's command does: M-x eglot, flymake's diagnostics, completion at point,
;; the hover eldoc shows, a quick fix from `eglot-code-actions', then saving.

(require 'json)
(require 'subr-x)
;; Debian's elpa-eglot is activated by site-start; elsewhere by package.el.
(unless (require 'eglot nil t)
  (package-initialize)
  (require 'eglot))
(if (getenv "MTHDS_INIT")
    (load (getenv "MTHDS_INIT") nil t)
  (load (getenv "MTHDS_MODE") nil t))

(defvar mthds-report nil "The report, an alist written as JSON.")
(defvar mthds-requests nil "Methods of the requests the server sent.")

(defun mthds-report (key value)
  (setq mthds-report (cons (cons key value) (assq-delete-all key mthds-report))))

(defun mthds-wait (pred seconds what)
  "Let Emacs read the server until PRED holds, for at most SECONDS."
  (let ((deadline (+ (float-time) seconds)))
    (while (and (not (funcall pred)) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    (unless (funcall pred) (error "Timed out waiting for %s" what))))

(defun mthds-diagnostics ()
  "Flymake's diagnostics of the buffer (what `flymake-show-buffer-diagnostics' lists)."
  (sort
   (mapcar (lambda (d)
             (let ((text (flymake-diagnostic-text d))
                   (beg (flymake-diagnostic-beg d)))
               `((code . ,(and (string-match "\\[\\([^]]+\\)\\]" text) (match-string 1 text)))
                 (line . ,(1- (line-number-at-pos beg)))
                 (col . ,(save-excursion (goto-char beg) (current-column)))
                 (text . ,text))))
           (flymake-diagnostics))
   (lambda (a b) (< (alist-get 'line a) (alist-get 'line b)))))

(defun mthds-goto (needle &optional offset)
  (goto-char (point-min))
  (search-forward needle)
  (goto-char (+ (match-beginning 0) (or offset 0))))

(advice-add 'eglot-handle-request :before
            (lambda (_server method &rest _) (push (format "%s" method) mthds-requests)))

;; eglot waits `eglot-sync-connect' seconds (3) for `initialize' before going on asynchronously; a
;; shared CI machine under load can take longer to start Node, and the report below reads the
;; server right after the hook ran. The wait is eglot's; the user's lines are unchanged.
(setq eglot-sync-connect 30)

(condition-case err
    (progn
      (find-file (getenv "MTHDS_FILE"))
      (mthds-report 'emacs emacs-version)
      (mthds-report 'eglot (progn (require 'lisp-mnt) (lm-version (find-library-name "eglot"))))
      (mthds-report 'mode (symbol-name major-mode))
      (mthds-report 'derived (and (derived-mode-p 'conf-toml-mode) t))
      (mthds-report 'project (project-root (project-current)))
      ;; `eglot-ensure' (docs/editors.md's hook) connects when the command that visited the file ends.
      (run-hooks 'post-command-hook)
      (mthds-report 'started-by (if (eglot-current-server) "eglot-ensure" "M-x eglot"))
      (unless (eglot-current-server) (apply #'eglot (eglot--guess-contact)))
      (mthds-wait #'eglot-current-server 30 "the server")
      (let ((server (eglot-current-server)))
        (mthds-report 'server (plist-get (eglot--server-info server) :name))
        (mthds-report 'folders (mapcar (lambda (f) (plist-get f :uri)) (eglot-workspace-folders server)))
        ;; Flymake starts its backend when Emacs is idle; a batch Emacs never is.
        (mthds-wait (lambda () (flymake-start) (flymake-diagnostics)) 30 "diagnostics")
        (mthds-report 'diagnostics (mthds-diagnostics))

        ;; Completion at point in `pipe = "|sugest_recipe"'.
        (mthds-goto "pipe = \"sugest_recipe" (length "pipe = \""))
        (let* ((capf (eglot-completion-at-point))
               (prefix (buffer-substring-no-properties (nth 0 capf) (point))))
          (let ((candidates (all-completions prefix (nth 2 capf))))
            (mthds-report 'completion candidates)
            ;; The documentation company (or `completion-extra-properties' users) shows beside it.
            (let* ((doc-buffer (plist-get (nthcdr 3 capf) :company-doc-buffer))
                   (chosen (seq-find (lambda (c) (string= c "suggest_recipe")) candidates))
                   (buffer (and doc-buffer chosen (funcall doc-buffer chosen))))
              (mthds-report 'completion-doc (and buffer (with-current-buffer buffer (buffer-substring-no-properties (point-min) (point-max))))))))

        ;; The hover eldoc shows on `Recipe' in `output = "Recipe"'.
        (mthds-goto "output = \"Recipe\"" (length "output = \"R"))
        (let ((hover (jsonrpc-request server :textDocument/hover (eglot--TextDocumentPositionParams))))
          (mthds-report 'hover-kind (plist-get (plist-get hover :contents) :kind))
          (mthds-report 'hover (substring-no-properties (eglot--hover-info (plist-get hover :contents) (plist-get hover :range)))))

        ;; The quick fix of `promt', as `M-x eglot-code-actions' runs it.
        (mthds-goto "promt")
        (let ((actions (eglot-code-actions (line-beginning-position) (line-end-position) "quickfix")))
          (mthds-report 'actions (mapcar (lambda (a) (plist-get a :title)) actions))
          (eglot--read-execute-code-action (list (car actions)) server "quickfix"))
        (mthds-report 'fixed-line (buffer-substring-no-properties (line-beginning-position) (line-end-position)))
        (let ((before (mthds-diagnostics)))
          ;; eglot sends the change from an idle timer (`eglot-send-changes-idle-time'), and a
          ;; batch Emacs is never idle: send it as that timer does.
          (eglot--signal-textDocument/didChange)
          (mthds-wait (lambda () (flymake-start) (not (equal (mthds-diagnostics) before))) 30 "updated diagnostics"))
        (mthds-report 'after-fix (mthds-diagnostics))
        (save-buffer)
        (mthds-report 'requests (reverse mthds-requests))
        (eglot-shutdown server)
        (mthds-report 'stopped t)))
  (error (mthds-report 'error (format "%S" err))))

(with-temp-file (getenv "MTHDS_RESULT")
  (insert (json-encode mthds-report)))
(kill-emacs 0)
;;; check.el ends here
